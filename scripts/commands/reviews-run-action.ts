/** The `hra reviews run` action: checks everything it can before any call, then runs the model reviewer. */
import { connect } from 'node:net';
import { join } from 'node:path';
import { openArchivedResponses } from '../../build/archive/open-archived-responses.ts';
import { openArchiveWriter } from '../../build/archive/open-archive-writer.ts';
import { defaultArchiveDir } from '../../build/archive/warc-archive-layout.ts';
import type { Corpus, ProgramRow } from '../../build/corpus/corpus-types.ts';
import { isChangeTimestamp } from '../../build/changes/is-change-timestamp.ts';
import { readCityPrograms } from '../../build/corpus/load-corpus.ts';
import { applyCorrections, indexCorrections, recordKey } from '../../build/derive/apply-corrections.ts';
import { openAppendOnlyLog } from '../../build/links/append-only-log.ts';
import { watchEventLoop } from '../../build/links/watch-event-loop.ts';
import { createPageTextExtractor } from '../../build/quotes/create-page-text-extractor.ts';
import { callReviewModel, DEFAULT_MODEL_RETRIES, DEFAULT_MODEL_TIMEOUT_MS } from '../../build/reviews/call-review-model.ts';
import { findDueReviews, DEFAULT_DUE_WITHIN_DAYS } from '../../build/reviews/find-due-reviews.ts';
import { runModelReviews, type ReviewedRecordOutcome } from '../../build/reviews/run-model-reviews.ts';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';
import { requireArchive } from './require-archive.ts';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** Where reviews are appended, relative to the corpus folder. */
const SOURCE_REVIEWS_FILE = 'evidence/source-reviews.ndjson';
/** 4 calls in flight: a local server batches them; a hosted one's rate limit answers 429, which is obeyed. */
export const DEFAULT_REVIEW_CONCURRENCY = 4;
/** `--timeout-ms`'s range: under 100 ms no endpoint answers; past 10 min a hung endpoint stalls the day's run. */
export const REVIEW_TIMEOUT_MS_RANGE = [100, 600_000] as const;
/** `--retries`'s range: past 10 the backoff alone (capped at 30 s a wait) holds a record for minutes. */
export const REVIEW_RETRIES_RANGE = [0, 10] as const;

/** The flags as commander hands them over. */
export interface ReviewsRunFlags {
  corpus: string;
  archive?: string;
  endpoint: string;
  model: string;
  apiKeyEnv?: string;
  only?: string[];
  limit?: string;
  concurrency?: string;
  timeoutMs?: string;
  retries?: string;
  at?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** Runs `hra reviews run` (operator contract: the flags, the lines, the exit codes). */
export async function runReviewsRun(flags: ReviewsRunFlags): Promise<void> {
  const endpoint = parseEndpoint(flags.endpoint);
  const apiKey = readApiKey(flags.apiKeyEnv);
  const limit = flags.limit === undefined ? undefined : wholeNumber('--limit', flags.limit, 1);
  const concurrency = flags.concurrency === undefined ? DEFAULT_REVIEW_CONCURRENCY : wholeNumber('--concurrency', flags.concurrency, 1, 64);
  const timeoutMs = flags.timeoutMs === undefined ? DEFAULT_MODEL_TIMEOUT_MS : wholeNumber('--timeout-ms', flags.timeoutMs, ...REVIEW_TIMEOUT_MS_RANGE);
  const retries = flags.retries === undefined ? DEFAULT_MODEL_RETRIES : wholeNumber('--retries', flags.retries, ...REVIEW_RETRIES_RANGE);
  if (flags.at !== undefined && !isChangeTimestamp(flags.at)) throw new CliFailure(`--at ${JSON.stringify(flags.at)}: must be an ISO 8601 date-time with a timezone, such as 2026-11-16T06:00:00Z`);
  const reviewedAt = (flags.at === undefined ? new Date() : new Date(flags.at)).toISOString().slice(0, 10);
  for (const only of flags.only ?? []) if (!/^[a-z0-9-]+\/[^/]+$/.test(only)) throw new CliFailure(`--only ${JSON.stringify(only)}: must be city/programId`);
  const corpus = loadCorpusOrFail(flags.corpus);
  const archiveDir = flags.archive ?? defaultArchiveDir(flags.corpus);
  requireArchive(archiveDir);
  if (!flags.dryRun) await requireReachable(endpoint);

  const only = flags.only === undefined ? undefined : new Set(flags.only);
  let targets = findDueReviews(corpus, { at: reviewedAt, withinDays: DEFAULT_DUE_WITHIN_DAYS }).due;
  if (only !== undefined) {
    const known = new Set(targets.map((item) => recordKey(item.city, item.programId)));
    for (const name of only) if (!known.has(name)) progress(`reviews: --only ${name}: not a served city record due for review; skipped`);
    targets = targets.filter((item) => only.has(recordKey(item.city, item.programId)));
  }
  if (limit !== undefined) targets = targets.slice(0, limit);

  // requireArchive has seen its index, so the archive opens.
  const archive = openArchivedResponses(archiveDir);
  const log = flags.dryRun ? undefined : openAppendOnlyLog(join(corpus.root, SOURCE_REVIEWS_FILE));
  const writer = flags.dryRun ? undefined : await openArchiveWriter({ archiveDir });
  const extractor = createPageTextExtractor();
  const stopOnSignal = (signal: NodeJS.Signals) => {
    void extractor.close();
    process.kill(process.pid, signal);
  };
  for (const signal of STOP_SIGNALS) process.once(signal, stopOnSignal);
  progress(`reviews: ${targets.length} records to review with ${flags.model} at ${endpoint.host}${flags.dryRun ? ' (dry run)' : ''}`);
  // The reviews bench's probe (BENCHMARKS.md): off unless asked for; it watches the reviews, not the queue's drawing-up.
  const loopWatch = process.env.HRA_REPORT_EVENT_LOOP_DELAY === '1' ? watchEventLoop() : undefined;
  let outcomes: ReviewedRecordOutcome[];
  try {
    outcomes = await runModelReviews({
      targets, rows: targetRows(corpus, new Set(targets.map((item) => recordKey(item.city, item.programId)))), linkChecks: corpus.linkChecks, archive,
      ...(writer === undefined ? {} : { writer }),
      extractText: (page) => extractor.extract(page),
      extractQuotes: (page, quotes) => extractor.extract(page, quotes),
      ...(flags.dryRun ? {} : {
        call: (messages) => callReviewModel({ baseUrl: endpoint.href.replace(/\/+$/, ''), model: flags.model, apiKey, timeoutMs, retries, log: progress }, messages),
      }),
      reviewer: { model: flags.model, endpointHost: endpoint.host },
      reviewedAt, concurrency,
      ...(log === undefined ? {} : { append: (line) => log.appendRow(line) }),
      onOutcome: (named) => { if (!flags.json) process.stdout.write(`${describeOutcome(named)}\n`); },
    });
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, stopOnSignal);
    await extractor.close();
    await writer?.close();
    log?.close();
    archive.close();
    if (loopWatch !== undefined) {
      const { maxDelayMs, maxBusyMs } = loopWatch.stop();
      progress(`reviews: longest event-loop block ${maxBusyMs} ms of CPU (${maxDelayMs} ms of wall-clock delay)`);
    }
  }
  const summary = summarize(outcomes);
  if (flags.json) {
    const result = { ...summary, outcomes };
    if (summary.failed > 0) throw new CliFailure(failureLine(summary), { details: result });
    printJson({ ok: true, ...result });
    return;
  }
  const rejected = Object.entries(summary.rejectedBy).map(([reason, count]) => `${reason} ${count}`).join(', ');
  process.stdout.write(`${summary.reviewed} reviewed (${summary.amount} amount, ${summary.identityMatch} identity match, ${summary.mismatch} mismatch), `
    + `${summary.rejected} rejected${rejected === '' ? '' : ` (${rejected})`}, ${summary.needsLinksCheck} need a links check, ${summary.noText} without text, `
    + `${summary.failed} endpoint failures; tokens: ${summary.tokens.prompt} prompt, ${summary.tokens.completion} completion\n`);
  if (summary.failed > 0) throw new CliFailure(failureLine(summary));
}

function describeOutcome({ city, programId, outcome }: ReviewedRecordOutcome): string {
  const name = `${city}/${programId}`;
  switch (outcome.kind) {
    case 'reviewed': return `${name}: reviewed: ${outcome.line.kind} ${outcome.line.identityMatch ? 'match' : 'mismatch'}`;
    case 'rejected': return `${name}: rejected (${outcome.reason}): ${outcome.detail}`;
    case 'needs-links-check': return `${name}: needs a links check: ${outcome.detail}`;
    case 'no-text': return `${name}: no text to review: ${outcome.detail}`;
    case 'endpoint-failure': return `${name}: endpoint failure: ${outcome.detail}`;
    case 'planned': return `${name}: would be reviewed (prompt of ${outcome.promptChars} characters)`;
  }
}

function summarize(outcomes: readonly ReviewedRecordOutcome[]) {
  const of = (kind: string) => outcomes.filter((item) => item.outcome.kind === kind);
  const reviewed = of('reviewed').map((item) => item.outcome as Extract<ReviewedRecordOutcome['outcome'], { kind: 'reviewed' }>);
  const rejected = of('rejected').map((item) => item.outcome as Extract<ReviewedRecordOutcome['outcome'], { kind: 'rejected' }>);
  const rejectedBy: Record<string, number> = {};
  for (const item of rejected) rejectedBy[item.reason] = (rejectedBy[item.reason] ?? 0) + 1;
  const tokens = { prompt: 0, completion: 0 };
  for (const item of [...reviewed, ...rejected]) {
    tokens.prompt += item.usage?.promptTokens ?? 0;
    tokens.completion += item.usage?.completionTokens ?? 0;
  }
  return {
    reviewed: reviewed.length,
    amount: reviewed.filter((item) => item.line.kind === 'amount').length,
    identityMatch: reviewed.filter((item) => item.line.kind === 'identity' && item.line.identityMatch).length,
    mismatch: reviewed.filter((item) => !item.line.identityMatch).length,
    rejected: rejected.length, rejectedBy,
    needsLinksCheck: of('needs-links-check').length, noText: of('no-text').length, failed: of('endpoint-failure').length,
    planned: of('planned').length, tokens,
  };
}

function failureLine(summary: { failed: number; reviewed: number }): string {
  return `${summary.failed} records got no answer from the endpoint after retries (${summary.reviewed} reviewed); run again to resume`;
}

/** The stored rows of the named records, after corrections (the prompt states their fields). */
function targetRows(corpus: Corpus, keys: ReadonlySet<string>): Map<string, ProgramRow> {
  const corrections = indexCorrections(corpus.corrections);
  const rows = new Map<string, ProgramRow>();
  const cities = new Set([...keys].map((key) => key.split('/')[0]!));
  for (const city of corpus.cities) {
    if (!cities.has(city.slug)) continue;
    for (const stored of readCityPrograms(corpus, city.slug)) {
      const key = recordKey(city.slug, stored.id);
      if (keys.has(key)) rows.set(key, applyCorrections(stored, corrections.get(key) ?? []));
    }
  }
  return rows;
}

function parseEndpoint(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliFailure(`--endpoint ${JSON.stringify(text)}: not a URL (such as http://127.0.0.1:8080/v1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliFailure(`--endpoint ${text}: must be an http or https URL`);
  if (url.username !== '' || url.password !== '') throw new CliFailure('--endpoint: must not carry credentials; name the key\'s variable with --api-key-env');
  return url;
}

/** The key from the named variable; the message names the variable, never its value. */
function readApiKey(variable: string | undefined): string | undefined {
  if (variable === undefined) return undefined;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) throw new CliFailure(`--api-key-env ${JSON.stringify(variable)}: not an environment variable name`);
  const value = process.env[variable];
  if (value === undefined || value.trim() === '') throw new CliFailure(`--api-key-env ${variable}: the variable is not set`);
  return value.trim();
}

function wholeNumber(flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new CliFailure(`${flag} ${JSON.stringify(text)}: must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`);
  return value;
}

/** Connects once to the endpoint's host and port, so an unreachable endpoint fails before any work. */
async function requireReachable(endpoint: URL): Promise<void> {
  const port = Number(endpoint.port || (endpoint.protocol === 'https:' ? 443 : 80));
  const host = endpoint.hostname.replace(/^\[|\]$/g, '');
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host, port, timeout: 5000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new CliFailure(`--endpoint ${endpoint.origin}: cannot be reached (no connection within 5 s); nothing was called`));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => reject(new CliFailure(`--endpoint ${endpoint.origin}: cannot be reached (${error.code ?? error.message}); nothing was called`)));
  });
}
