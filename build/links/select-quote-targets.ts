/** Chooses the quote checks a `links check` run makes: amount quotes of served records not checked lately. */
import type { Corpus, QuoteCheck, SourceReview } from '../corpus/corpus-types.ts';
import { recordKey } from '../derive/apply-corrections.ts';
import { groupBy } from '../derive/group-by.ts';
import { latestReview } from '../derive/latest-review.ts';
import { quoteDigest } from '../derive/quote-digest.ts';
import { utcDayNumber } from '../derive/utc-day-number.ts';
import { EXTRACTOR_VERSION } from '../quotes/extractor-version.ts';
import { findReusableQuoteVerdicts, type ReusableQuoteVerdicts } from './find-reusable-quote-verdicts.ts';
import { visitCitations, type Citation } from './visit-citations.ts';

/** One quote to look for in one cited page. */
export interface QuoteTask {
  city: string;
  programId: string;
  /** The review whose quote this is: its date, the quote and the quote's SHA-256. */
  reviewedAt: string;
  quote: string;
  quoteSha256: string;
}

/** Options of selectQuoteTargets. */
export interface QuoteTargetOptions {
  /** The run's date, YYYY-MM-DD (UTC). */
  today: string;
  maxAgeDays: number;
  /** Only quotes of records citing these URLs (`--url`). */
  only?: ReadonlySet<string>;
}

/** The due quote checks by cited URL, and how many quotes were left out as checked lately. */
export interface QuoteTargets {
  due: Map<string, QuoteTask[]>;
  /** Quotes of served records on the selected URLs (due or not). */
  quotes: number;
  fresh: number;
  /** The earlier verdicts a due task may carry forward when its page's bytes repeat (find-reusable-quote-verdicts.ts); absent, none. */
  reusable?: ReusableQuoteVerdicts;
}

/**
 * Selects the due quote checks. A served record (live city or national, URL after corrections) has a
 * quote when its latest review is of kind `amount`. The quote is due unless a check of the same review
 * (date and quote SHA-256) on the same URL, whatever its outcome, is less than `maxAgeDays` whole days
 * before `today`: an edited quote, a new review or a corrected URL is due at once, and a run killed part
 * way leaves due exactly the quotes it had not reached.
 */
export function selectQuoteTargets(corpus: QuoteTargetInputs, options: QuoteTargetOptions): QuoteTargets {
  const collector = createQuoteTargetCollector(corpus, options);
  visitCitations(corpus, collector.visit);
  return collector.finish();
}

/** What quote selection reads of a corpus. */
export type QuoteTargetInputs = Pick<Corpus, 'national' | 'cities' | 'programFiles' | 'corrections' | 'sourceReviews' | 'quoteChecks'>;

/**
 * selectQuoteTargets fed one citation at a time, in visitCitations order, so that link selection's pass
 * over the city files serves both (at ten times the scale each pass re-reads 22,000 files).
 */
export function createQuoteTargetCollector(
  corpus: Pick<Corpus, 'sourceReviews' | 'quoteChecks'>, options: QuoteTargetOptions,
): { visit: (citation: Citation) => void; finish: () => QuoteTargets } {
  const reviews = groupBy(corpus.sourceReviews, (review) => recordKey(review.city, review.programId));
  const checks = groupBy(corpus.quoteChecks, (check) => recordKey(check.city, check.programId));
  const today = utcDayNumber(options.today, 'today');
  const due = new Map<string, QuoteTask[]>();
  let quotes = 0;
  let fresh = 0;
  const visit = ({ city, programId, url }: Citation) => {
    if (options.only !== undefined && !options.only.has(url)) return;
    const key = recordKey(city, programId);
    const review: SourceReview | undefined = latestReview(reviews.get(key) ?? []);
    if (review?.kind !== 'amount' || review.amountQuote === undefined) return;
    quotes += 1;
    const task: QuoteTask = { city, programId, reviewedAt: review.reviewedAt, quote: review.amountQuote, quoteSha256: quoteDigest(review.amountQuote) };
    if ((checks.get(key) ?? []).some((check) => checksTask(check, task, url) && today - utcDayNumber(check.checkedAt, 'checkedAt') < options.maxAgeDays)) {
      fresh += 1;
      return;
    }
    const list = due.get(url);
    if (list) list.push(task);
    else due.set(url, [task]);
  };
  const finish = (): QuoteTargets => {
    // Only lines of due tasks can be reused; the rest need no place in the index.
    const dueKeys = new Set<string>();
    for (const [url, tasks] of due) for (const task of tasks) dueKeys.add(JSON.stringify([recordKey(task.city, task.programId), url]));
    const candidates = corpus.quoteChecks.filter((check) => dueKeys.has(JSON.stringify([recordKey(check.city, check.programId), check.url])));
    return { due, quotes, fresh, reusable: findReusableQuoteVerdicts(candidates, EXTRACTOR_VERSION) };
  };
  return { visit, finish };
}

function checksTask(check: QuoteCheck, task: QuoteTask, url: string): boolean {
  return check.url === url && check.reviewedAt === task.reviewedAt && check.quoteSha256 === task.quoteSha256;
}
