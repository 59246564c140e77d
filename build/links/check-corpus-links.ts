/**
 * One `hra links check` run over selected URLs: attempts scheduled politely, each appended as it
 * finishes, progress reported, and a summary of what moved.
 */
import type { Dispatcher } from 'undici';
import type { ArchiveExchange, ArchivedExchange } from '../archive/open-archive-writer.ts';
import type { LinkCheck, QuoteCheck } from '../corpus/corpus-types.ts';
import { captureExchange, MAX_CAPTURED_BYTES } from './capture-exchange.ts';
import { checkLink } from './check-link.ts';
import { checkQuotes, type ExtractText } from './check-quotes.ts';
import { createByteBudget } from './create-byte-budget.ts';
import { createLimiter } from './create-limiter.ts';
import { createHostGate, type GateTimers } from './host-gate.ts';
import { createNetworkGuard, FIRST_WINDOW, isUnreachable, NetworkUnavailable } from './network-guard.ts';
import { createProgressMeter } from './progress-meter.ts';
import { readABodyLastTime } from './read-a-body-last-time.ts';
import { RequestFailure } from './request-failure.ts';
import { runLinkChecks } from './run-link-checks.ts';
import type { LinkTargets } from './select-link-targets.ts';
import { sendRequest } from './send-request.ts';
import { createLinkRunTally, type LinkRunTally } from './summarize-link-run.ts';
import type { LinkVerdict } from './link-check-types.ts';
import type { BodyRead } from './send-request.ts';

/** The run's settings (the command's flags, parsed). */
export interface LinkRunOptions {
  /** The date every attempt of this run records, YYYY-MM-DD. */
  checkedAt: string;
  concurrency: number;
  perHost: number;
  hostIntervalMs: number;
  timeoutMs: number;
  retries: number;
  userAgent: string;
  /** Pages whose text is extracted at once (PDF parsing is CPU- and memory-bound, unlike fetching). */
  extractConcurrency: number;
  /** Page bytes held at once, read or waiting for extraction (default PAGE_BYTES_BUDGET). */
  pageBytesBudget?: number;
}

/** The run's connections to the world. */
export interface LinkRunDeps {
  dispatcher: Dispatcher;
  /** True when `dispatcher` sends everything through a proxy (a refused connection then stops the run). */
  viaProxy: boolean;
  /** Stores one finished attempt (the appender, or the dry run's printer). */
  record(check: LinkCheck): void;
  /** Stores one finished quote check, after its URL's attempt. */
  recordQuote(check: QuoteCheck): void;
  /** Extracts a fetched page's text (build/quotes); its calls are limited to `extractConcurrency` at once. */
  extract: ExtractText;
  timers: GateTimers;
  wallNow(): number;
  random(): number;
  progress(line: string): void;
  residentBytes(): number;
  /**
   * Archives one fetched exchange (every hop, HEAD and retry), resolving once it is indexed; absent, nothing is
   * archived. A verdict waits for its final response's record, so no line names a record not yet indexed.
   */
  archive?(exchange: ArchiveExchange): Promise<ArchivedExchange>;
}

/** What a run did; `stopped` is set when the proxy refused connections or the network was gone (network-guard.ts). */
export interface LinkRunResult {
  tally: LinkRunTally;
  /** Quote checks made, by outcome. */
  quotes: Record<QuoteCheck['outcome'], number>;
  /** Pages handed to the extraction (counted as asked, stored or not), and quote checks carried forward unextracted. */
  quoteWork: { extracted: number; reused: number };
  stopped?: RequestFailure | NetworkUnavailable;
}

/** Bodies are read at most this far (decoded); the rules need the title and the first h1. */
export const BODY_CAP_BYTES = 1024 * 1024;
/**
 * 48 MiB of page bodies held at once: reads past it wait. Room for two pages at the PDF cap, or many
 * ordinary pages, whose declared length is all they hold; with the extraction children it keeps the run
 * under 1 GiB (BENCHMARKS.md, hostile pages).
 */
export const PAGE_BYTES_BUDGET = 48 * 1024 * 1024;
/** A Retry-After beyond this is not waited for: the attempt is `inconclusive`. */
export const RETRY_AFTER_CAP_MS = 60_000;
/** Backoff never starts below this, even with `--host-interval-ms 0`. */
const MIN_BACKOFF_MS = 100;
const PROGRESS_EVERY_MS = 5_000;

/**
 * Checks every URL of `targets`, calling `deps.record` for each as it finishes. The run consumes `targets`:
 * a URL's entries in `quotes.due`, `wholePages` and `previous` are dropped once its attempt is recorded.
 */
export async function checkCorpusLinks(targets: LinkTargets, options: LinkRunOptions, deps: LinkRunDeps): Promise<LinkRunResult> {
  const gate = createHostGate({ perHost: options.perHost, intervalMs: options.hostIntervalMs, timers: deps.timers });
  const { add, tally } = createLinkRunTally(targets.previous);
  // URLs left per host: starts on one host are hostIntervalMs apart, so the busiest host bounds the ETA from below.
  const left = new Map<string, number>();
  for (const url of targets.urls) left.set(new URL(url).host, (left.get(new URL(url).host) ?? 0) + 1);
  const meter = createProgressMeter({
    total: targets.urls.length, now: deps.timers.now, write: deps.progress, residentBytes: deps.residentBytes, everyMs: PROGRESS_EVERY_MS,
    floorMs: () => Math.max(0, Math.max(0, ...left.values()) - 1) * options.hostIntervalMs,
  });
  const headers = {
    'user-agent': options.userAgent,
    accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
    // Compressed answers are decoded anyway; asking for none spares both sides the work on a prefix read.
    'accept-encoding': 'identity',
  };
  const pageBudget = createByteBudget(options.pageBytesBudget ?? PAGE_BYTES_BUDGET);
  const archive = deps.archive;
  const send = async (url: string, method: 'HEAD' | 'GET', read: BodyRead) => {
    // The captured bytes count in the page budget until they are archived: beside a page read they are a second copy.
    const capture = archive === undefined ? undefined : captureExchange({ url, method, headers, now: deps.wallNow }, MAX_CAPTURED_BYTES, pageBudget);
    try {
      const release = await gate.acquire(new URL(url).host);
      let response;
      try {
        response = await sendRequest({
          dispatcher: deps.dispatcher, viaProxy: deps.viaProxy, url, method, headers, timeoutMs: options.timeoutMs, read, bodyCap: BODY_CAP_BYTES, pageBudget, capture,
        });
      } finally {
        release();
      }
      // Written after the host's slot is let go: the disk's pace is not the host's.
      const exchange = await capture?.exchange();
      if (archive !== undefined && exchange !== undefined) response.archived = await archive(exchange);
      return response;
    } finally {
      capture?.release();
    }
  };
  const linkDeps = {
    send,
    deferHost: (host: string, untilMs: number) => gate.defer(host, untilMs),
    now: deps.timers.now,
    wallNow: deps.wallNow,
    random: deps.random,
    retries: options.retries,
    backoffBaseMs: Math.max(MIN_BACKOFF_MS, options.hostIntervalMs),
    retryAfterCapMs: RETRY_AFTER_CAP_MS,
    // While the first window is in doubt, an attempt that never reached its host is not retried: the
    // guard decides on first tries in seconds, and the attempt is checked anew if the run goes on (and
    // after a stop, a retry would only delay the end).
    skipRetries: (answer: RequestFailure | number) => guard.inDoubt() && (typeof answer === 'number'
      ? isUnreachable({ outcome: 'inconclusive', httpStatus: answer, reason: '' }, deps.viaProxy)
      : answer.unreachable),
  };
  const quotes: LinkRunResult['quotes'] = { found: 0, 'not-found': 0, inconclusive: 0 };
  const work: LinkRunResult['quoteWork'] = { extracted: 0, reused: 0 };
  const extracting = createLimiter(options.extractConcurrency);
  const extract: ExtractText = (page, quotes) => {
    work.extracted += 1;
    return extracting(() => deps.extract(page, quotes));
  };
  // The URL's attempt and its quote checks come from one fetch; the page is dropped once they are made.
  let started = 0;
  const visit = async (url: string): Promise<{ verdict: LinkVerdict; quoteChecks: QuoteCheck[] }> => {
    started += 1;
    const tasks = targets.quotes.due.get(url);
    // Where the last attempt read an HTML page, a HEAD would only be answered empty before the GET.
    const verdict = await checkLink(url, linkDeps, { wantPage: targets.wholePages.has(url), getFirst: readABodyLastTime(targets.previous.get(url)) });
    try {
      const quoteChecks = tasks === undefined ? [] : await checkQuotes(url, tasks, verdict, options.checkedAt, extract, targets.quotes.reusable);
      return { verdict, quoteChecks };
    } finally {
      // The page's bytes were held against the budget since they were read (send-request.ts).
      if (verdict.page?.kind === 'read') pageBudget.release(verdict.page.bytes.byteLength);
      delete verdict.page;
    }
  };
  type Finished = { check: LinkCheck; verdict: LinkVerdict; quoteChecks: QuoteCheck[] };
  // Puts a URL back in the run; set by runLinkChecks with each result, and only called from within one.
  let again: (url: string) => void = () => {};
  const guard = createNetworkGuard<Finished>({
    attempts: targets.urls.length, hosts: left.size, viaProxy: deps.viaProxy, now: deps.timers.now,
    confirm(items, notBefore) {
      for (const { check } of items) {
        const host = new URL(check.url).host;
        confirming.add(host);
        gate.defer(host, notBefore);
        again(check.url);
      }
    },
  });
  // In doubt, only the window's attempts start, then only those confirming a stop: more would queue behind
  // a slow resolver and delay the decision, and their results would be held anyway.
  const window = Math.min(FIRST_WINDOW, targets.urls.length);
  const confirming = new Set<string>();
  const mayStart = (host: string) => !guard.inDoubt() || (confirming.size > 0 ? confirming.has(host) : started < window);
  // Attempts and their quote checks reach the files in completion order, once the guard lets them through:
  // a run without a network appends neither. An attempt cut short while the network was in doubt is made anew.
  const store = (finished: Finished) => {
    const { check, verdict, quoteChecks } = finished;
    if (verdict.unretried === true) return again(check.url);
    const host = new URL(check.url).host;
    left.set(host, (left.get(host) ?? 1) - 1);
    meter.tick();
    deps.record(check);
    // Written, the URL is never visited again: what was held for its visit goes, so the run's memory is what is left to check.
    targets.quotes.due.delete(check.url);
    targets.wholePages.delete(check.url);
    for (const quoteCheck of quoteChecks) {
      deps.recordQuote(quoteCheck);
      quotes[quoteCheck.outcome] += 1;
      if (quoteCheck.reuses !== undefined) work.reused += 1;
    }
    add(check, verdict.reason);
    // A refusal is worth a line of its own: a cited page that sends the checker inward is a finding.
    if (verdict.refused) deps.progress(`links: ${check.url}: ${verdict.reason}`);
  };
  try {
    await runLinkChecks({
      urls: targets.urls,
      concurrency: options.concurrency,
      perHost: options.perHost,
      readyAt: (host) => gate.readyAt(host),
      timers: deps.timers,
      check: visit,
      mayStart,
      onResult(url, { verdict, quoteChecks }, requeue) {
        again = requeue;
        const check: LinkCheck = { url, checkedAt: options.checkedAt, outcome: verdict.outcome, httpStatus: verdict.httpStatus };
        if (verdict.pageClass !== undefined) check.pageClass = verdict.pageClass;
        if (verdict.archived !== undefined) {
          check.warcRecordId = verdict.archived.responseRecordId;
          check.payloadSha256 = verdict.archived.payloadSha256;
        }
        const wasInDoubt = guard.inDoubt();
        // Cut short in doubt but finished after: the guard has decided without it.
        if (!wasInDoubt && verdict.unretried === true) return again(url);
        for (const done of guard.accept({ host: new URL(url).host, verdict, item: { check, verdict, quoteChecks } })) store(done);
        // The rate an ETA is drawn from starts here: the window's attempts, released at once, would inflate it.
        if (wasInDoubt && !guard.inDoubt()) meter.startEta();
      },
    });
  } catch (error) {
    if (error instanceof RequestFailure && error.kind === 'proxy-refused') return { tally, quotes, quoteWork: work, stopped: error };
    if (error instanceof NetworkUnavailable) return { tally, quotes, quoteWork: work, stopped: error };
    throw error;
  }
  for (const done of guard.finish()) store(done);
  if (targets.urls.length > 0) deps.progress(meter.line());
  return { tally, quotes, quoteWork: work };
}
