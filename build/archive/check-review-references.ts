/**
 * The part of `hra verify --archive` that checks what review lines and audit rows name. A review line's
 * `warcRecordId` must be a response (or a revisit of one) of the URL its record cited on the review's day,
 * or reached from it through archived redirects, as link-check lines are; its payload digest must be the
 * line's `payloadSha256`, and its bytes must hash to it. A model review's `exchange` must be a request to the
 * reviewer's endpoint host and the response to that request, whose payload is a Chat Completions answer.
 * An audit report row's `warcRecordId` must be in the archive and of its record's cited URL. Each problem
 * names the file and line (or row) and the record id. Lines are read one at a time.
 */
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Corpus } from '../corpus/corpus-types.ts';
import type { ArchiveIndex, ArchiveIndexRow } from './archive-index.ts';
import type { CitedUrlAt } from './cited-url-at.ts';
import { archivedRedirectsReach } from './follow-archived-redirects.ts';
import { ArchiveRecordError, readArchivedRecord } from './read-archived-record.ts';

/** The review lines' file and the audit report, relative to the corpus folder. */
export const SOURCE_REVIEWS_FILE = 'evidence/source-reviews.ndjson';
export const FACT_AUDIT_FILE = 'reports/fact-audit-latest.json';

/** What the check reads. */
export interface ReviewReferenceSources {
  archiveDir: string;
  index: ArchiveIndex;
  corpusDir: string;
  /** The loaded corpus's audit report (`reports.fact-audit-latest`), already validated. */
  corpus: Pick<Corpus, 'reports'>;
  urlAt: CitedUrlAt;
}

/** Counts and problems. */
export interface ReviewReferenceReport {
  /** Review lines that name an archived page. */
  reviewLines: number;
  /** Of them, model reviews whose exchange was checked. */
  exchanges: number;
  /** Audit report rows that name an archived record. */
  auditRows: number;
  problems: string[];
}

/** Runs both checks (see the file head). */
export async function checkReviewReferences(sources: ReviewReferenceSources): Promise<ReviewReferenceReport> {
  const report: ReviewReferenceReport = { reviewLines: 0, exchanges: 0, auditRows: 0, problems: [] };
  const file = join(sources.corpusDir, SOURCE_REVIEWS_FILE);
  if (existsSync(file)) {
    let number = 0;
    for await (const text of createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })) {
      number += 1;
      if (text.trim() === '') continue;
      // The corpus loader validated every line before verify runs: each is a source review object.
      const line = JSON.parse(text) as ReviewLine;
      if (typeof line.warcRecordId !== 'string') continue;
      report.reviewLines += 1;
      const where = `${file}:${number}`;
      const url = sources.urlAt(line.city, line.programId, line.reviewedAt);
      const page = await pageProblem(sources, line.warcRecordId, line.payloadSha256, url, `${line.city}/${line.programId}`);
      if (page !== undefined) report.problems.push(`${where} warcRecordId ${line.warcRecordId}: ${page}`);
      if (line.reviewer?.kind === 'model' && line.exchange !== undefined) {
        report.exchanges += 1;
        for (const problem of await exchangeProblems(sources, line.exchange, line.reviewer.endpointHost ?? '')) report.problems.push(`${where} exchange: ${problem}`);
      }
    }
  }
  const audit = sources.corpus.reports['fact-audit-latest'] as { completedAt?: unknown; records?: unknown } | undefined;
  const rows = Array.isArray(audit?.records) ? audit.records as AuditRow[] : [];
  const day = typeof audit?.completedAt === 'string' ? audit.completedAt.slice(0, 10) : '9999-12-31';
  for (const [at, row] of rows.entries()) {
    if (typeof row?.warcRecordId !== 'string') continue;
    report.auditRows += 1;
    const url = sources.urlAt(row.city, row.programId, day);
    const problem = await pageProblem(sources, row.warcRecordId, row.payloadSha256, url, `${row.city}/${row.programId}`);
    if (problem !== undefined) report.problems.push(`${join(sources.corpusDir, FACT_AUDIT_FILE)} records[${at}] (${row.city}/${row.programId} ${row.field}) warcRecordId ${row.warcRecordId}: ${problem}`);
  }
  return report;
}

interface ReviewLine {
  city: string;
  programId: string;
  reviewedAt: string;
  warcRecordId?: string;
  payloadSha256?: string;
  reviewer?: { kind: string; endpointHost?: string };
  exchange?: { requestRecordId: string; responseRecordId: string };
}

interface AuditRow {
  city: string;
  programId: string;
  field: string;
  warcRecordId?: string;
  payloadSha256?: string;
}

/** Why `recordId` is not an archived page of `url` with `payloadSha256` (when given), or undefined. */
async function pageProblem(sources: ReviewReferenceSources, recordId: string, payloadSha256: string | undefined, url: string | undefined, record: string): Promise<string | undefined> {
  const row = sources.index.byRecordId(recordId);
  if (row === undefined) return 'not in the archive (no index row)';
  if (row.type !== 'response' && row.type !== 'revisit') return `is a ${row.type} record, not a response`;
  if (payloadSha256 !== undefined && row.payloadSha256 !== payloadSha256) return `the line binds payload sha256 ${payloadSha256}, the archive indexes ${row.payloadSha256 ?? 'none'}`;
  const read = await readOrProblem(sources, recordId);
  if (typeof read === 'string') return read;
  if (url === undefined) return `${record} cites no URL in the corpus, so no page can back it`;
  if (row.targetUri === url) return undefined;
  const reached = await redirectsReach(sources, url, row);
  if (reached === true) return undefined;
  return `the record is of ${row.targetUri}, not of ${record}'s cited URL ${url} nor of a redirect from it in the archive${typeof reached === 'string' ? ` (${reached})` : ''}`;
}

/** What is wrong with a model review's exchange: its request, its response, and that they belong together. */
async function exchangeProblems(sources: ReviewReferenceSources, exchange: NonNullable<ReviewLine['exchange']>, endpointHost: string): Promise<string[]> {
  const problems: string[] = [];
  const request = sources.index.byRecordId(exchange.requestRecordId);
  const response = sources.index.byRecordId(exchange.responseRecordId);
  if (request === undefined) problems.push(`requestRecordId ${exchange.requestRecordId}: not in the archive (no index row)`);
  else if (request.type !== 'request') problems.push(`requestRecordId ${exchange.requestRecordId}: is a ${request.type} record, not a request`);
  else if (hostOf(request.targetUri) !== endpointHost) problems.push(`requestRecordId ${exchange.requestRecordId}: a request to ${request.targetUri}, not to the reviewer's endpoint host ${endpointHost}`);
  else if (request.concurrentTo !== exchange.responseRecordId) problems.push(`requestRecordId ${exchange.requestRecordId}: its response is ${request.concurrentTo ?? 'none'}, not ${exchange.responseRecordId}`);
  if (response === undefined) problems.push(`responseRecordId ${exchange.responseRecordId}: not in the archive (no index row)`);
  else if (response.type !== 'response' && response.type !== 'revisit') problems.push(`responseRecordId ${exchange.responseRecordId}: is a ${response.type} record, not a response`);
  else if (request !== undefined && response.targetUri !== request.targetUri) problems.push(`responseRecordId ${exchange.responseRecordId}: a response of ${response.targetUri}, not of the request's ${request.targetUri}`);
  else {
    const read = await readOrProblem(sources, exchange.responseRecordId);
    if (typeof read === 'string') problems.push(`responseRecordId ${exchange.responseRecordId}: ${read}`);
    else if (!isCompletion(read)) problems.push(`responseRecordId ${exchange.responseRecordId}: its payload is not a Chat Completions answer (no choices)`);
  }
  return problems;
}

/** The record's payload, read and hashed against its digest by the archive's reader, or the reader's problem. */
async function readOrProblem(sources: ReviewReferenceSources, recordId: string): Promise<Uint8Array | string> {
  try {
    return (await readArchivedRecord(sources.archiveDir, sources.index, recordId)).payload;
  } catch (error) {
    if (error instanceof ArchiveRecordError) return error.message;
    throw error;
  }
}

async function redirectsReach(sources: ReviewReferenceSources, url: string, row: ArchiveIndexRow): Promise<boolean | string> {
  try {
    return await archivedRedirectsReach(sources.archiveDir, sources.index, url, row.targetUri, row.warcDate);
  } catch (error) {
    if (error instanceof ArchiveRecordError) return `a redirect the archive cannot give: ${error.message}`;
    throw error;
  }
}

function isCompletion(payload: Uint8Array): boolean {
  try {
    const body = JSON.parse(Buffer.from(payload).toString('utf8')) as { choices?: unknown };
    return Array.isArray(body?.choices);
  } catch {
    return false;
  }
}

function hostOf(uri: string): string | undefined {
  try {
    return new URL(uri).host;
  } catch {
    return undefined;
  }
}
