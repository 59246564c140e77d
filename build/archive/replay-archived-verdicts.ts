/**
 * Derives every archived verdict of a corpus again from the archive, offline: a link check by classifying
 * its archived final response again, a quote check by reading its archived page and judging its quotes
 * with the weekly run's own steps (rederive-link-verdict.ts, then check-quotes.ts through the extractor
 * given). What a verdict is compared on, and which lines count, is in docs/auditors.md ("Replaying").
 */
import type { Corpus, LinkCheck, QuoteCheck } from '../corpus/corpus-types.ts';
import { quoteDigest } from '../derive/quote-digest.ts';
import { checkQuotes, type ExtractText } from '../links/check-quotes.ts';
import type { QuoteTask } from '../links/select-quote-targets.ts';
import { rederiveReviews } from '../reviews/rederive-reviews.ts';
import type { ArchivedResponse } from './archived-response.ts';
import { type EvidenceLineKind, recordBindingOf, recordBindingProblem } from './evidence-record-binding.ts';
import { sha256Hex } from './payload-digest.ts';
import { decidesSubject, evidenceSubject } from './read-evidence-references.ts';
import { rederiveLinkVerdict } from './rederive-link-verdict.ts';

/** The archive fields a verdict line may carry (corpus/README.md, "Quote checks"). */
interface ArchiveFields {
  warcRecordId?: string;
  payloadSha256?: string;
  extractor?: string;
  rederived?: { extractor: string; from: string };
  reuses?: { checkedAt: string; warcRecordId: string };
}
type ArchivedQuoteCheck = QuoteCheck & ArchiveFields;
type ArchivedLinkCheck = LinkCheck & ArchiveFields;

/** What a replay needs from the outside world. */
export interface ReplayOptions {
  corpus: Pick<Corpus, 'quoteChecks' | 'linkChecks' | 'sourceReviews'>;
  /** Only verdicts checked on or after this date (YYYY-MM-DD). */
  since?: string;
  /**
   * The archived response a record id names, its payload checked against its digest; throws for a record
   * that cannot be read. `isDigestFailure` tells which of those errors is a payload no longer matching.
   */
  readResponse(recordId: string): Promise<ArchivedResponse>;
  isDigestFailure(error: unknown): error is Error & { file?: string; recordId?: string };
  /** Whether the archive's index has a row for a record id (a pruned record has none). */
  isIndexed(recordId: string): boolean;
  /** Whether the archive's redirect hops lead from `fromUrl` to `toUri`, dated no later than `notAfter`. */
  redirectsReach(fromUrl: string, toUri: string, notAfter: string): Promise<boolean>;
  /** The weekly run's extraction (create-page-text-extractor.ts, its children and memory bounds). */
  extract: ExtractText;
  /** EXTRACTOR_VERSION, written on the re-derived lines. */
  extractorVersion: string;
  /** Records read at once, so the extraction children always have a page waiting. */
  concurrency: number;
  progress?(message: string): void;
}

/** A verdict the archive does not reproduce. */
export interface ReplayDifference {
  kind: 'link-check' | 'quote-check' | 'review';
  recordId: string;
  /** The WARC file of the record (relative to the archive), when it was read. */
  file: string | undefined;
  /** What the verdict is about: the URL, and for a quote check the record and review. */
  subject: string;
  recorded: string;
  rederived: string;
}

/** What a replay found. */
export interface ReplayReport {
  checked: number;
  matched: number;
  /**
   * Verdicts not re-derived because their record is gone from the index and a later archived line of the
   * same subject replaces each of them: what `hra archive prune` removes (counted as `hra verify` counts them).
   */
  pruned: number;
  differences: ReplayDifference[];
  /** Re-derived quote checks to append (maintainer's mode): each differs from the line it re-judged. */
  rederived: QuoteCheck[];
  /** Verdicts not re-derived, and why (a quote the corpus no longer holds, a run-time limit of the replay). */
  notes: string[];
}

/** Replays the archived verdicts of the corpus (see the file head). */
export async function replayArchivedVerdicts(options: ReplayOptions): Promise<ReplayReport> {
  const { corpus, since } = options;
  const inRange = (line: ArchiveFields & { checkedAt: string }): boolean =>
    line.warcRecordId !== undefined && (since === undefined || line.checkedAt >= since);
  const quoteLines = effectiveQuoteChecks((corpus.quoteChecks as ArchivedQuoteCheck[]).filter(inRange));
  const linkLines = (corpus.linkChecks as ArchivedLinkCheck[]).filter(inRange);
  const byRecord = new Map<string, { links: ArchivedLinkCheck[]; quotes: ArchivedQuoteCheck[] }>();
  const work = (id: string) => byRecord.get(id) ?? byRecord.set(id, { links: [], quotes: [] }).get(id)!;
  for (const line of linkLines) work(line.warcRecordId!).links.push(line);
  for (const line of quoteLines) work(line.warcRecordId!).quotes.push(line);
  const quotes = quoteTexts(corpus);
  const replaced = replacedLines(corpus, options.isIndexed);
  const reusedLine = reusedLines(corpus);

  // One report per record, merged in record order: what is printed and appended does not depend on timing.
  const records = [...byRecord.entries()];
  const reports: ReplayReport[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < records.length) {
      const position = next++;
      const [recordId, lines] = records[position]!;
      const report: ReplayReport = { checked: 0, matched: 0, pruned: 0, differences: [], rederived: [], notes: [] };
      try {
        const all = [...lines.links, ...lines.quotes];
        if (!options.isIndexed(recordId) && all.every((line) => replaced.has(line))) report.pruned += all.length;
        else await replayRecord(recordId, lines.links, lines.quotes, { quotes, reusedLine }, options, report);
      } catch (error) {
        next = records.length; // the other workers stop after their record
        throw error;
      }
      reports[position] = report;
      done += 1;
      if (done % 500 === 0) options.progress?.(`replay: ${done} of ${records.length} records`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  // Reviews with provenance (issue 38): a model's from its archived answer, a person's quote from its page.
  const reviews = await rederiveReviews({ reviews: corpus.sourceReviews, ...(since === undefined ? {} : { since }), readResponse: options.readResponse, isDigestFailure: options.isDigestFailure, extract: options.extract });
  return {
    checked: reports.reduce((sum, report) => sum + report.checked, 0) + reviews.checked,
    matched: reports.reduce((sum, report) => sum + report.matched, 0) + reviews.matched,
    pruned: reports.reduce((sum, report) => sum + report.pruned, 0),
    differences: [...reports.flatMap((report) => report.differences), ...reviews.differences],
    rederived: reports.flatMap((report) => report.rederived),
    notes: reports.flatMap((report) => report.notes),
  };
}

/**
 * The quote-check lines a derivation can rest on: per fetch (the same review, quote, URL, date and record),
 * the last re-derived line when there is one (mechanical-quote-verdict.ts), else every line.
 */
function effectiveQuoteChecks(lines: readonly ArchivedQuoteCheck[]): ArchivedQuoteCheck[] {
  const key = (line: ArchivedQuoteCheck) => JSON.stringify([line.city, line.programId, line.reviewedAt, line.quoteSha256, line.url, line.checkedAt, line.warcRecordId]);
  const lastRederived = new Map<string, ArchivedQuoteCheck>();
  for (const line of lines) if (line.rederived !== undefined) lastRederived.set(key(line), line);
  return lines.filter((line) => {
    const replacement = lastRederived.get(key(line));
    return replacement === undefined || replacement === line;
  });
}

/**
 * The line a reusing line names (`reuses`: same review, quote and URL, that date and record), as derivations
 * read it: a fetch with re-derived lines speaks by the last of them. Undefined when the corpus holds none.
 */
function reusedLines(corpus: Pick<Corpus, 'quoteChecks'>): (line: ArchivedQuoteCheck) => ArchivedQuoteCheck | undefined {
  const key = (line: ArchivedQuoteCheck, checkedAt: string, recordId: string) => JSON.stringify([line.city, line.programId, line.reviewedAt, line.quoteSha256, line.url, checkedAt, recordId]);
  const byFetch = new Map<string, ArchivedQuoteCheck>();
  for (const line of corpus.quoteChecks as ArchivedQuoteCheck[]) {
    if (line.warcRecordId === undefined) continue;
    const fetch = key(line, line.checkedAt, line.warcRecordId);
    // The first line of a fetch, unless a re-derivation of it follows: the last of those then.
    if (!byFetch.has(fetch) || line.rederived !== undefined) byFetch.set(fetch, line);
  }
  return (line) => (line.reuses === undefined ? undefined : byFetch.get(key(line, line.reuses.checkedAt, line.reuses.warcRecordId)));
}

/**
 * Why a reusing line does not follow from the line it names, or undefined when it does: that line must exist,
 * have judged the same payload under the same extractor, and say what this one says.
 */
function reuseProblem(line: ArchivedQuoteCheck, earlier: ArchivedQuoteCheck | undefined): string | undefined {
  if (line.reuses === undefined) return undefined;
  const named = `the line it reuses (checked ${line.reuses.checkedAt}, record ${line.reuses.warcRecordId})`;
  if (earlier === undefined) return `${named} is not in the corpus`;
  if (earlier.payloadSha256 !== line.payloadSha256) return `${named} judged payload sha256 ${earlier.payloadSha256 ?? '(none)'}, not ${line.payloadSha256}`;
  if (earlier.extractor !== line.extractor) return `${named} was judged by extractor ${earlier.extractor ?? '(none)'}, not ${line.extractor}`;
  if (describeQuote(earlier) !== describeQuote(line)) return `${named} says ${describeQuote(earlier)}`;
  return undefined;
}

/**
 * The archived lines a later line of the same subject replaces: one that decides and names a record the index
 * still holds (the rule `hra archive prune` drops a record by, load-evidence-table.ts). Lines come in file
 * order, so a later line on the same date wins, as every derivation reads them.
 */
function replacedLines(corpus: Pick<Corpus, 'quoteChecks' | 'linkChecks'>, isIndexed: (recordId: string) => boolean): Set<object> {
  type Line = { line: object; checkedAt: string; decides: boolean; recordId: string | undefined };
  const bySubject = new Map<string, Line[]>();
  const add = (kind: EvidenceLineKind, line: ArchiveFields & { checkedAt: string }) => {
    const row = line as unknown as Record<string, unknown>;
    const subject = evidenceSubject(kind, row);
    const lines = bySubject.get(subject) ?? bySubject.set(subject, []).get(subject)!;
    lines.push({ line, checkedAt: line.checkedAt, decides: decidesSubject(kind, row), recordId: line.warcRecordId });
  };
  for (const line of corpus.linkChecks as ArchivedLinkCheck[]) add('link-check', line);
  for (const line of corpus.quoteChecks as ArchivedQuoteCheck[]) add('quote-check', line);
  const replaced = new Set<object>();
  for (const lines of bySubject.values()) {
    // Walking back from the latest line: each earlier one is replaced once a deciding, indexed line follows it.
    const order = lines.map((line, seq) => ({ ...line, seq })).sort((a, b) => (a.checkedAt < b.checkedAt ? -1 : a.checkedAt > b.checkedAt ? 1 : a.seq - b.seq));
    let later = false;
    for (let at = order.length - 1; at >= 0; at--) {
      const line = order[at]!;
      if (later) replaced.add(line.line);
      if (line.decides && line.recordId !== undefined && isIndexed(line.recordId)) later = true;
    }
  }
  return replaced;
}

/** Each amount quote of the corpus by its review and digest: a quote-check line names its quote only so. */
function quoteTexts(corpus: Pick<Corpus, 'sourceReviews'>): Map<string, string> {
  const texts = new Map<string, string>();
  for (const review of corpus.sourceReviews) {
    if (review.kind !== 'amount' || review.amountQuote === undefined) continue;
    texts.set(JSON.stringify([review.city, review.programId, review.reviewedAt, quoteDigest(review.amountQuote)]), review.amountQuote);
  }
  return texts;
}

/** What the quote lines of a record are read against: the corpus's quotes, and the line each reusing line names. */
interface QuoteContext {
  quotes: ReadonlyMap<string, string>;
  reusedLine(line: ArchivedQuoteCheck): ArchivedQuoteCheck | undefined;
}

async function replayRecord(
  recordId: string, links: readonly ArchivedLinkCheck[], quoteLines: readonly ArchivedQuoteCheck[], { quotes, reusedLine }: QuoteContext,
  options: ReplayOptions, report: ReplayReport,
): Promise<void> {
  let response: ArchivedResponse;
  try {
    response = await options.readResponse(recordId);
  } catch (error) {
    if (!options.isDigestFailure(error)) throw error;
    // The message names the file and the record holding the payload (for a revisit, the one it repeats).
    const location = `${error.file} record ${error.recordId}: `;
    const problem = error.message.startsWith(location) ? error.message.slice(location.length) : error.message;
    const why = `nothing: ${error.recordId === recordId ? '' : `the record it revisits, ${error.recordId}: `}${problem}`;
    // Nothing is judged on bytes that are not the ones the run read: every verdict on them differs.
    report.checked += links.length + quoteLines.length;
    for (const line of links) differ(report, 'link-check', recordId, error.file, line.url, describeLink(line), why);
    for (const line of quoteLines) differ(report, 'quote-check', recordId, error.file, quoteSubject(line), describeQuote(line), why);
    return;
  }
  const actualSha256 = sha256Hex(response.payload);
  const digestBound = (line: ArchiveFields) => (line.payloadSha256 === actualSha256 ? undefined : `payload sha256 ${line.payloadSha256 ?? '(none)'}, but the record holds ${actualSha256}`);
  // A verdict rests on its own URL's bytes: the record's URI (from its member) against the line's.
  const boundTo = async (kind: EvidenceLineKind, line: ArchiveFields) => digestBound(line)
    ?? await recordBindingProblem(recordBindingOf(kind, line as unknown as Record<string, unknown>), response.targetUri,
      (from, to) => options.redirectsReach(from, to, response.warcDate));

  for (const line of links) {
    const bound = await boundTo('link-check', line);
    report.checked += 1;
    if (bound !== undefined) {
      differ(report, 'link-check', recordId, response.file, line.url, describeLink(line), `nothing: ${bound}`);
      continue;
    }
    // Read as the run read it: the whole page when quotes were checked on the same fetch.
    const read = quoteLines.length > 0 ? 'page' : 'prefix';
    const verdict = await rederiveLinkVerdict(response, line.url, read);
    const again: LinkCheck = { url: line.url, checkedAt: line.checkedAt, outcome: verdict.outcome, httpStatus: verdict.httpStatus, ...(verdict.pageClass ? { pageClass: verdict.pageClass } : {}) };
    if (describeLink(again) === describeLink(line)) report.matched += 1;
    else differ(report, 'link-check', recordId, response.file, line.url, describeLink(line), describeLink(again));
  }

  // One judgement per fetch and cited URL, all its quotes at once, as the run judged them.
  const groups = new Map<string, ArchivedQuoteCheck[]>();
  for (const line of quoteLines) {
    const key = JSON.stringify([line.url, line.checkedAt]);
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  for (const lines of groups.values()) {
    const judged: Array<{ line: ArchivedQuoteCheck; task: QuoteTask }> = [];
    for (const line of lines) {
      // A reused verdict is judged on today's bytes like any other, and must also follow from the line it names.
      const bound = await boundTo('quote-check', line) ?? reuseProblem(line, reusedLine(line));
      if (bound !== undefined) {
        report.checked += 1;
        differ(report, 'quote-check', recordId, response.file, quoteSubject(line), describeQuote(line), `nothing: ${bound}`);
        continue;
      }
      const quote = quotes.get(JSON.stringify([line.city, line.programId, line.reviewedAt, line.quoteSha256]));
      if (quote === undefined) {
        report.notes.push(`${recordId}: ${quoteSubject(line)}: no amount review holds the quote it checked, so it is not re-derived`);
        continue;
      }
      judged.push({ line, task: { city: line.city, programId: line.programId, reviewedAt: line.reviewedAt, quote, quoteSha256: line.quoteSha256 } });
    }
    if (judged.length === 0) continue;
    const { url, checkedAt } = judged[0]!.line;
    const verdict = await rederiveLinkVerdict(response, url, 'page');
    // Whether the extraction's own limits, not the page, left it unjudged: such a re-derivation is reported but
    // never appended, since another run may judge the page.
    let runTimeLimit = false;
    const again = await checkQuotes(url, judged.map(({ task }) => task), verdict, checkedAt, async (page, quotes) => {
      const answer = await options.extract(page, quotes);
      runTimeLimit = answer.kind === 'inconclusive' && answer.limit === 'run-time';
      return answer;
    });
    for (const [index, { line }] of judged.entries()) {
      const check = again[index]!;
      report.checked += 1;
      if (describeQuote(check) === describeQuote(line)) {
        report.matched += 1;
        continue;
      }
      differ(report, 'quote-check', recordId, response.file, quoteSubject(line), describeQuote(line), describeQuote(check));
      if (check.outcome === 'inconclusive' && runTimeLimit) {
        report.notes.push(`${recordId}: ${quoteSubject(line)}: re-derived inconclusive for a run-time limit (${check.reason}), so nothing is appended; run it again`);
        continue;
      }
      const rederived: ArchivedQuoteCheck = {
        ...check, warcRecordId: recordId, payloadSha256: actualSha256, extractor: options.extractorVersion,
        rederived: { extractor: options.extractorVersion, from: line.checkedAt },
      };
      report.rederived.push(rederived);
    }
  }
}

function differ(report: ReplayReport, kind: ReplayDifference['kind'], recordId: string, file: string | undefined, subject: string, recorded: string, rederived: string): void {
  report.differences.push({ kind, recordId, file, subject, recorded, rederived });
}

/** A link verdict as compared: outcome, final status and page class. */
function describeLink(line: LinkCheck): string {
  return `${line.outcome} (status ${line.httpStatus ?? 'none'}${line.pageClass === undefined ? '' : `, ${line.pageClass} page`})`;
}

/**
 * A quote verdict as compared: the outcome, and for a conclusive one the text it was judged on (length and
 * SHA-256) and a not-found page's amounts. An inconclusive one compares by its outcome alone: its reason may
 * name the run's own conditions (a deadline, memory), which a replay does not repeat.
 */
function describeQuote(line: QuoteCheck): string {
  if (line.outcome === 'inconclusive') return 'inconclusive';
  const amounts = line.outcome === 'not-found' ? `, amounts ${(line.statedAmounts ?? []).map((amount) => amount.text).join(' ') || 'none'}` : '';
  return `${line.outcome} (text of ${line.textLength} code points, sha256 ${line.textSha256}${amounts})`;
}

function quoteSubject(line: QuoteCheck): string {
  return `quote of ${line.city}/${line.programId} reviewed ${line.reviewedAt} on ${line.url} checked ${line.checkedAt}`;
}
