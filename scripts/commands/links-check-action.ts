/** The `hra links check` action: parses its flags, wires the real network and files, prints the summary. */
import { ArchiveLockedError } from '../../build/archive/archive-lock.ts';
import { ARCHIVE_SOFTWARE, openArchiveWriter, type ArchiveExchange, type ArchivedExchange, type ArchiveWriter } from '../../build/archive/open-archive-writer.ts';
import { defaultArchiveDir } from '../../build/archive/warc-archive-layout.ts';
import { isChangeTimestamp } from '../../build/changes/is-change-timestamp.ts';
import type { Corpus, QuoteCheck } from '../../build/corpus/corpus-types.ts';
import { QUOTE_CHECKS_FILE } from '../../build/corpus/quote-checks-file.ts';
import { advanceAsOf, MANIFEST_FILE, type AsOfMove } from '../../build/corpus/advance-as-of.ts';
import { openAppendOnlyLog, type AppendOnlyLog } from '../../build/links/append-only-log.ts';
import { createPageTextExtractor, DEFAULT_EXTRACT_CHILDREN } from '../../build/quotes/create-page-text-extractor.ts';
import { checkCorpusLinks, type LinkRunOptions, type LinkRunResult } from '../../build/links/check-corpus-links.ts';
import { createLinkDispatcher } from '../../build/links/create-link-dispatcher.ts';
import { findCitations, type CitingCorpus } from '../../build/links/find-citations.ts';
import { LINK_CHECKS_FILE, openLinkCheckLog, type LinkCheckLog } from '../../build/links/link-check-log.ts';
import { linkUserAgent } from '../../build/links/link-user-agent.ts';
import { NetworkUnavailable } from '../../build/links/network-guard.ts';
import { probeProxy } from '../../build/links/probe-proxy.ts';
import { selectLinkTargets, type LinkTargets } from '../../build/links/select-link-targets.ts';
import { DEFAULT_DUE_WITHIN_DAYS } from '../../build/reviews/find-due-reviews.ts';
import { findDueReviewPages } from '../../build/reviews/find-due-review-pages.ts';
import { recordKey } from '../../build/derive/apply-corrections.ts';
import { watchEventLoop } from '../../build/links/watch-event-loop.ts';
import type { LinkRunTally } from '../../build/links/summarize-link-run.ts';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { packageVersion } from '../package-version.ts';
import { loadLinkRunInputs } from './load-link-run-inputs.ts';
import { redactPassword } from './redact-password.ts';

/** The flags as commander hands them over (numbers still text). */
export interface LinksCheckFlags {
  corpus: string;
  at?: string;
  maxAgeDays: string;
  url?: string[];
  concurrency: string;
  perHost: string;
  hostIntervalMs: string;
  timeoutMs: string;
  retries: string;
  proxy?: string;
  userAgent?: string;
  allowPrivateAddresses?: boolean;
  /** False with `--no-quotes`. */
  quotes?: boolean;
  /** The archive folder; false with `--no-archive`; undefined for the default beside the corpus. */
  archive?: string | false;
  archiveRollMb: string;
  dryRun?: boolean;
  json?: boolean;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Runs `hra links check`; every expected failure is a CliFailure thrown before anything is appended. */
export async function runLinksCheck(flags: LinksCheckFlags): Promise<void> {
  const at = flags.at ?? new Date().toISOString();
  if (!isChangeTimestamp(at)) throw new CliFailure(`--at ${JSON.stringify(at)}: must be an ISO 8601 date-time with a timezone, such as 2026-11-16T06:00:00Z`);
  const options: Omit<LinkRunOptions, 'userAgent'> = {
    checkedAt: new Date(at).toISOString().slice(0, 10),
    concurrency: count('--concurrency', flags.concurrency, 1),
    perHost: count('--per-host', flags.perHost, 1),
    hostIntervalMs: count('--host-interval-ms', flags.hostIntervalMs, 0),
    timeoutMs: count('--timeout-ms', flags.timeoutMs, 1),
    retries: count('--retries', flags.retries, 0),
    // Pages handed to the extraction children at once: two each (one read, one waiting in the child).
    extractConcurrency: 2 * DEFAULT_EXTRACT_CHILDREN,
  };
  const maxAgeDays = count('--max-age-days', flags.maxAgeDays, 0);
  const archiveRollMib = count('--archive-roll-mb', flags.archiveRollMb, 1);
  const proxy = flags.proxy === undefined ? undefined : proxyUrl(flags.proxy);
  // What messages show of --proxy: never its password.
  const shownProxy = proxy === undefined ? undefined : redactPassword(proxy);
  for (const url of flags.url ?? []) if (!/^https?:\/\/./.test(url)) throw new CliFailure(`--url ${JSON.stringify(url)}: must be an http:// or https:// URL`);

  const { corpus, targets, reviews } = chooseTargets(flags, options.checkedAt, maxAgeDays);
  const { userAgent } = corpus;
  const [uncited] = targets.uncited;
  if (uncited !== undefined) throw new CliFailure(`--url ${uncited}: no program of a live city and no national record cites it`);
  progress(`links: ${targets.cited} cited URLs, ${targets.fresh} checked within ${maxAgeDays} days, ${targets.urls.length} to check`);
  const { quotes } = targets;
  const quotesDue = quotes.quotes - quotes.fresh;
  progress(`quotes: ${quotes.quotes} amount quotes on them, ${quotes.fresh} checked within ${maxAgeDays} days, ${quotesDue} to check`);
  progress(`reviews: ${reviews.due} cited URLs of records due a source review, ${reviews.toCheck} of them to check, read as whole pages (${reviews.derived} records derived)`);

  if (proxy !== undefined && targets.urls.length > 0) {
    await probeProxy(proxy, options.timeoutMs).catch((error: Error) => {
      throw new CliFailure(`--proxy ${shownProxy}: ${error.message}; nothing was checked or appended`);
    });
  }
  const log = flags.dryRun || targets.urls.length === 0 ? undefined : openLog(corpus);
  const policy = { allowPrivateAddresses: flags.allowPrivateAddresses === true };
  let quoteLog: AppendOnlyLog | undefined;
  try {
    quoteLog = log === undefined || quotesDue === 0 ? undefined : openAppendOnlyLog(`${corpus.root}/${QUOTE_CHECKS_FILE}`);
  } catch (error) {
    log?.close();
    throw new CliFailure(`${QUOTE_CHECKS_FILE}: cannot be opened for appending (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  // The archive is written only when the lines are: a dry run keeps nothing.
  const archiveDir = log === undefined || flags.archive === false ? undefined : flags.archive ?? defaultArchiveDir(flags.corpus);
  let archive: ArchiveWriter | undefined;
  try {
    const info = { software: `${ARCHIVE_SOFTWARE}/${packageVersion()}`, userAgent, ...(corpus.manifest.contact === undefined ? {} : { contact: corpus.manifest.contact }) };
    archive = archiveDir === undefined ? undefined : await openArchiveWriter({ archiveDir, rollBytes: archiveRollMib * 1024 * 1024, info });
  } catch (error) {
    log?.close();
    quoteLog?.close();
    if (error instanceof ArchiveLockedError) throw new CliFailure(error.message);
    throw new CliFailure(`--archive ${archiveDir}: cannot be opened for writing (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was checked or appended`);
  }
  for (const sealed of archive?.sealed ?? []) {
    progress(`archive: ${sealed.file}: ${sealed.removed ? 'removed, no record of it was indexed' : `sealed, ${sealed.cutBytes} bytes past its last indexed record cut`} (a killed run's file)`);
  }
  const archived = { exchanges: 0, revisits: 0 };
  const print = (row: object) => process.stdout.write(`${JSON.stringify(row)}\n`);
  // One pool of extraction children for the run, started only when a page arrives.
  const pageExtractor = createPageTextExtractor();
  // A signal must not leave a child parsing a bomb: kill them, then end as the signal asks.
  const stopOnSignal = (signal: NodeJS.Signals) => {
    void pageExtractor.close();
    process.kill(process.pid, signal);
  };
  for (const signal of STOP_SIGNALS) process.once(signal, stopOnSignal);
  // The hostile-pages bench's probe (BENCHMARKS.md): off unless asked for.
  const loopWatch = process.env.HRA_REPORT_EVENT_LOOP_DELAY === '1' ? watchEventLoop() : undefined;
  const connections = createLinkDispatcher({ proxy, concurrency: options.concurrency, perHost: options.perHost, policy });
  let result;
  try {
    result = await checkCorpusLinks(targets, { ...options, userAgent }, {
      dispatcher: connections.dispatcher,
      viaProxy: proxy !== undefined,
      record: log ? (check) => appendOrFail(log.file, () => log.append(check)) : print,
      recordQuote: quoteLog ? (check: QuoteCheck) => appendOrFail(quoteLog.file, () => quoteLog.appendRow(check)) : print,
      extract: (page, quotes) => pageExtractor.extract(page, quotes),
      timers: { now: () => performance.now(), setTimeout: (callback, ms) => setTimeout(callback, ms) },
      wallNow: () => Date.now(),
      random: Math.random,
      progress,
      residentBytes: () => process.memoryUsage.rss(),
      ...(archive === undefined ? {} : { archive: (exchange) => archiveOrFail(archive, exchange, archived) }),
    });
  } finally {
    if (archive !== undefined) {
      await archive.close();
      progress(`archive: ${archived.exchanges} exchanges written to ${archiveDir} (${archived.revisits} of their responses as revisits of an identical payload)`);
    }
    log?.close();
    quoteLog?.close();
    for (const signal of STOP_SIGNALS) process.off(signal, stopOnSignal);
    await pageExtractor.close();
    await connections.destroy();
    if (loopWatch !== undefined) {
      const { maxDelayMs, maxBusyMs } = loopWatch.stop();
      progress(`links: longest event-loop block ${maxBusyMs} ms of CPU (${maxDelayMs} ms of wall-clock delay)`);
    }
  }
  const { tally, stopped } = result;
  if (stopped instanceof NetworkUnavailable) {
    const kept = stopped.phase === 'first-window' ? 'nothing was appended' : `${tally.checked} of ${targets.urls.length} URLs were checked${log ? ' and appended' : ''} before`;
    throw new CliFailure(`no network: ${stopped.message}; ${kept}; check the resolver and the network${proxy ? ` or --proxy ${shownProxy}` : ''}, then rerun`);
  }
  if (stopped) {
    throw new CliFailure(
      `--proxy ${shownProxy}: refused connections after ${tally.checked} of ${targets.urls.length} URLs were checked` +
        `${log ? ' and appended' : ''}; rerun to check the rest (${stopped.message})`,
    );
  }
  const quoteRun = { due: quotesDue, fresh: quotes.fresh, outcomes: result.quotes, work: result.quoteWork, file: quoteLog?.file };
  // The corpus now holds evidence of this date: staleness is served counted from asOf, so asOf follows.
  const asOf = log !== undefined && tally.checked > 0 ? moveAsOf(corpus, options.checkedAt) : undefined;
  printSummary(corpus, tally, quoteRun, { cited: targets.cited, fresh: targets.fresh, appended: log ? tally.checked : 0, dryRun: flags.dryRun === true, json: flags.json === true, file: log?.file, asOf });
}

/** The record keys (recordKey) of the served records that cite one of `urls`. */
function recordsCiting(corpus: CitingCorpus, urls: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const records of findCitations(corpus, new Set(urls)).values()) for (const { city, programId } of records) keys.add(recordKey(city, programId));
  return keys;
}

/** What a run keeps of the corpus once its targets are chosen: where it is, its manifest, and what says which record cites a URL. */
interface RunCorpus extends CitingCorpus {
  root: string;
  manifest: Corpus['manifest'];
  /** The run's User-Agent (--user-agent, else drawn from the manifest's contact). */
  userAgent: string;
}

/**
 * Loads the corpus and chooses the run's URLs. Only a RunCorpus leaves: the evidence lines and reviews are
 * read here and nowhere after, and held for the run they would be its largest allocation; what no step
 * reads is not kept past the load (load-link-run-inputs.ts; BENCHMARKS.md, "Link check at ten times the scale").
 */
function chooseTargets(flags: LinksCheckFlags, checkedAt: string, maxAgeDays: number): { corpus: RunCorpus; targets: LinkTargets; reviews: { due: number; toCheck: number; derived: number } } {
  const corpus = loadLinkRunInputs(flags.corpus);
  const userAgent = flags.userAgent ?? linkUserAgent(corpus.manifest);
  if (userAgent === undefined || userAgent.trim() === '') {
    throw new CliFailure(`${flags.corpus}/manifest.json: no "contact" URL for the User-Agent (add one, or pass --user-agent)`);
  }
  // The records `reviews due` lists at the run's date, by the queue's own rule: their pages are read whole.
  // Only their URLs are kept, and no record is derived (find-due-review-pages.ts).
  // A --url run judges only the records its URLs cite: the queue of the rest cannot choose its pages.
  const records = flags.url ? recordsCiting(corpus, flags.url) : undefined;
  const queue = findDueReviewPages(corpus, { at: checkedAt, withinDays: DEFAULT_DUE_WITHIN_DAYS, ...(records ? { records } : {}) });
  const reviewPages = queue.urls;
  const targets = selectLinkTargets(corpus, { today: checkedAt, maxAgeDays, quotes: flags.quotes !== false, reviewPages, ...(flags.url ? { only: flags.url } : {}) });
  const toCheck = targets.urls.filter((url) => reviewPages.has(url)).length;
  const { root, manifest, national, cities, programFiles, corrections } = corpus;
  return { corpus: { root, manifest, national, cities, programFiles, corrections, userAgent }, targets, reviews: { due: reviewPages.size, toCheck, derived: queue.judged } };
}

function moveAsOf(corpus: RunCorpus, date: string): AsOfMove | undefined {
  try {
    return advanceAsOf(corpus.root, date);
  } catch (error) {
    throw new CliFailure(`${MANIFEST_FILE}: the checks were appended, but asOf could not be moved to ${date} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); set it by hand`);
  }
}

function openLog(corpus: RunCorpus): LinkCheckLog {
  try {
    return openLinkCheckLog(corpus.root);
  } catch (error) {
    throw new CliFailure(`${LINK_CHECKS_FILE}: cannot be opened for appending (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** A failed archive write stops the run with one line: no later line may go without its record. */
async function archiveOrFail(archive: ArchiveWriter, exchange: ArchiveExchange, counts: { exchanges: number; revisits: number }): Promise<ArchivedExchange> {
  try {
    const done = await archive.writeExchange(exchange);
    counts.exchanges += 1;
    if (done.responseType === 'revisit') counts.revisits += 1;
    return done;
  } catch (error) {
    throw new CliFailure(`--archive ${archive.archiveDir}: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the lines appended before stay, rerun to check the rest`);
  }
}

/** A failed append (disk full, file gone) stops the run with one line; the lines before it stay whole. */
function appendOrFail(file: string, append: () => void): void {
  try {
    append();
  } catch (error) {
    throw new CliFailure(`${file}: cannot append (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); rerun to check the rest`);
  }
}

/** The quote side of a run, for the summary. */
interface QuoteRun {
  due: number;
  fresh: number;
  outcomes: LinkRunResult['quotes'];
  work: LinkRunResult['quoteWork'];
  file: string | undefined;
}

function printSummary(
  corpus: RunCorpus, tally: LinkRunTally, quoteRun: QuoteRun,
  run: { cited: number; fresh: number; appended: number; dryRun: boolean; json: boolean; file: string | undefined; asOf: AsOfMove | undefined },
): void {
  const citations = findCitations(corpus, new Set(tally.changed.map((change) => change.url)));
  const changed = tally.changed.map((change) => ({ ...change, programs: citations.get(change.url) ?? [] }));
  if (run.json) {
    const { checked, outcomes, firstChecks } = tally;
    const quoteChecked = Object.values(quoteRun.outcomes).reduce((sum, n) => sum + n, 0);
    const quotes = { checked: quoteChecked, fresh: quoteRun.fresh, appended: quoteRun.file ? quoteChecked : 0, outcomes: quoteRun.outcomes, ...quoteRun.work };
    printJson({ ok: true, checked, cited: run.cited, fresh: run.fresh, appended: run.appended, dryRun: run.dryRun, outcomes, firstChecks, changed, quotes, asOf: run.asOf ?? null });
    return;
  }
  const counts = Object.entries(tally.outcomes).map(([outcome, n]) => `${outcome} ${n}`).join(', ');
  const lines = [`checked ${tally.checked} of ${run.cited} cited URLs (${run.fresh} checked recently, skipped): ${counts}`];
  if (changed.length > 0) lines.push(`${changed.length} changed since their previous attempt:`);
  for (const change of changed) {
    const programs = change.programs.map((record) => `${record.city}/${record.programId}`).join(', ');
    lines.push(`  ${change.from} -> ${change.to} (${change.httpStatus ?? 'no status'}; ${change.reason}) ${change.url}  cited by ${programs}`);
  }
  const quoteCounts = Object.entries(quoteRun.outcomes).map(([outcome, n]) => `${outcome} ${n}`).join(', ');
  const quoteChecked = Object.values(quoteRun.outcomes).reduce((sum, n) => sum + n, 0);
  lines.push(`checked ${quoteChecked} amount quotes (${quoteRun.fresh} checked recently, skipped): ${quoteCounts}`);
  // Reused verdicts rest on bytes judged before: the operator sees how many, and how many pages were read.
  if (quoteChecked > 0) lines.push(`  ${quoteRun.work.reused} carried forward from an earlier check of the same bytes, ${quoteRun.work.extracted} pages extracted`);
  if (run.dryRun) lines.push('dry run: nothing appended');
  else if (run.file !== undefined) lines.push(`appended ${run.appended} attempts to ${run.file}`);
  if (!run.dryRun && quoteRun.file !== undefined) lines.push(`appended ${quoteChecked} quote checks to ${quoteRun.file}`);
  if (run.asOf !== undefined) lines.push(`moved ${MANIFEST_FILE} asOf from ${run.asOf.from} to ${run.asOf.to} (review staleness is served counted from it)`);
  // A dry run's stdout is its NDJSON attempts alone, for a pipe to read; the summary is progress then.
  if (run.dryRun) progress(lines.join('\n'));
  else process.stdout.write(`${lines.join('\n')}\n`);
}

function count(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min) {
    throw new CliFailure(`${flag} ${JSON.stringify(text)}: must be a whole number of at least ${min}`);
  }
  return value;
}

function proxyUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliFailure(`--proxy ${JSON.stringify(redactPassword(text))}: not a URL (expected http://host:port)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliFailure(`--proxy ${redactPassword(text)}: must be an http:// or https:// proxy URL`);
  return url.href;
}
