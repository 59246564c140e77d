/** `hra links report`: what a maintainer must look at after a run, to write the corrections. */
import type { Corpus, LinkCheck } from '../corpus/corpus-types.ts';
import { groupBy } from '../derive/group-by.ts';
import { findCitations, type CitingRecord } from './find-citations.ts';
import { findQuoteReportEntries, type QuoteNotFound, type ReviewedAmountDiffers, type ReviewTurningStale } from './find-quote-report-entries.ts';
import { findLikelyClosed } from './find-likely-closed.ts';
import { latestAttemptByUrl } from './latest-attempt.ts';
import { visitCitations } from './visit-citations.ts';

/** A cited URL whose latest attempt is `dead` or `bot-blocked`. */
export interface ProblemLink {
  url: string;
  outcome: 'dead' | 'bot-blocked';
  httpStatus: number | null;
  checkedAt: string;
  programs: CitingRecord[];
}

/** A program whose cited URL meets the likely-closed rule. */
export interface LikelyClosedProgram {
  city: string;
  programId: string;
  url: string;
  /** The three check dates, oldest first. */
  dates: string[];
}

/**
 * The weekly report: the link lists sorted by URL, then city and program id; the review lists by city,
 * then program id. `at` is the day the report looks ahead from.
 */
export interface LinkReport {
  at: string;
  quotesNotFound: QuoteNotFound[];
  /** Accepted model or person reviews whose amount quote states another amount than maxAmount. */
  reviewedAmounts: ReviewedAmountDiffers[];
  staleSoon: ReviewTurningStale[];
  likelyClosed: LikelyClosedProgram[];
  problems: ProblemLink[];
}

/** Builds the report from the corpus's evidence on the records served today (`today`, YYYY-MM-DD). */
export function buildLinkReport(corpus: Corpus, today: string): LinkReport {
  const cited = new Set<string>();
  visitCitations(corpus, ({ url }) => cited.add(url));
  const latest = latestAttemptByUrl(corpus.linkChecks, cited);
  const attempts = groupBy(corpus.linkChecks.filter((check) => cited.has(check.url)), (check) => check.url);

  const problemAttempts: LinkCheck[] = [];
  for (const check of latest.values()) if (check.outcome === 'dead' || check.outcome === 'bot-blocked') problemAttempts.push(check);
  const closedDates = new Map<string, string[]>();
  for (const [url, list] of attempts) {
    const dates = findLikelyClosed(list);
    if (dates !== undefined) closedDates.set(url, dates);
  }
  const citations = findCitations(corpus, new Set([...problemAttempts.map((check) => check.url), ...closedDates.keys()]));

  const problems = problemAttempts
    .map((check): ProblemLink => ({
      url: check.url,
      outcome: check.outcome as ProblemLink['outcome'],
      httpStatus: check.httpStatus,
      checkedAt: check.checkedAt,
      programs: citations.get(check.url) ?? [],
    }))
    .sort((a, b) => compare(a.url, b.url));
  const likelyClosed = [...closedDates]
    .flatMap(([url, dates]) => (citations.get(url) ?? []).map((record) => ({ ...record, url, dates })))
    .sort((a, b) => compare(a.url, b.url) || compare(a.city, b.city) || compare(a.programId, b.programId));
  return { at: today, ...findQuoteReportEntries(corpus, today), likelyClosed, problems };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
