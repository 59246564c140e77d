/**
 * Chooses the URLs a `links check` run visits: cited, and either not checked within the last `maxAgeDays`
 * or carrying a quote check that is due (select-quote-targets.ts); and which of them it reads as whole pages.
 */
import type { Corpus, LinkCheck } from '../corpus/corpus-types.ts';
import { utcDayNumber } from '../derive/utc-day-number.ts';
import { latestAttemptByUrl } from './latest-attempt.ts';
import { createQuoteTargetCollector, type QuoteTargetInputs, type QuoteTargets } from './select-quote-targets.ts';
import { visitCitations } from './visit-citations.ts';

/** Options of selectLinkTargets. */
export interface LinkTargetOptions {
  /** The run's date, YYYY-MM-DD (UTC): ages are whole days before it. */
  today: string;
  maxAgeDays: number;
  /** Only these URLs (`--url`); each must be cited. */
  only?: readonly string[];
  /** False: links alone, no quote checks (the benchmark's baseline). Default true. */
  quotes?: boolean;
  /**
   * URLs cited by a record due a source review (the caller draws them from the review queue): each visited
   * one is read and archived as a whole page, so a reviewer has the page to judge.
   */
  reviewPages?: ReadonlySet<string>;
}

/** What link selection reads of a corpus. */
export type LinkTargetInputs = QuoteTargetInputs & Pick<Corpus, 'linkChecks'>;

/** The run's work list and what the selection left out. */
export interface LinkTargets {
  /** URLs to check, sorted. */
  urls: string[];
  /** Distinct URLs cited by served records (or the `only` ones). */
  cited: number;
  /** Cited URLs left out because their latest attempt is younger than `maxAgeDays` and no quote on them is due. */
  fresh: number;
  /** The due quote checks by URL (each of those URLs is in `urls`). */
  quotes: QuoteTargets;
  /** URLs of `urls` read to the end of the page (within the page limits): a quote check or a review is due on them. */
  wholePages: Set<string>;
  /** The latest attempt of each URL to check that has one, to compare new outcomes with. */
  previous: Map<string, LinkCheck>;
  /** `only` URLs that no served record cites (the caller refuses them). */
  uncited: string[];
}

/**
 * Selects the URLs to check. A URL is left out when its latest attempt, whatever its outcome, is less
 * than `maxAgeDays` whole days before `today`, so a run interrupted on Monday resumes on Tuesday with
 * the URLs it had not reached, and a second run the same day checks nothing (`maxAgeDays` 0 checks all).
 */
export function selectLinkTargets(corpus: LinkTargetInputs, options: LinkTargetOptions): LinkTargets {
  // One pass over the citations for both selections: a citation's URL is cited, so `only` selects the
  // same quotes as `only` narrowed to the cited URLs would.
  const quoteCollector = options.quotes === false
    ? undefined
    : createQuoteTargetCollector(corpus, { today: options.today, maxAgeDays: options.maxAgeDays, ...(options.only === undefined ? {} : { only: new Set(options.only) }) });
  const citedUrls = new Set<string>();
  visitCitations(corpus, (citation) => {
    citedUrls.add(citation.url);
    quoteCollector?.visit(citation);
  });
  const uncited = (options.only ?? []).filter((url) => !citedUrls.has(url));
  const wanted = options.only === undefined ? citedUrls : new Set(options.only.filter((url) => citedUrls.has(url)));
  const latest = latestAttemptByUrl(corpus.linkChecks, wanted);
  const today = utcDayNumber(options.today, 'today');
  const quotes: QuoteTargets = quoteCollector === undefined ? { due: new Map(), quotes: 0, fresh: 0 } : quoteCollector.finish();
  const urls: string[] = [];
  const previous = new Map<string, LinkCheck>();
  for (const url of wanted) {
    const last = latest.get(url);
    const linkFresh = last !== undefined && today - utcDayNumber(last.checkedAt, `${url} checkedAt`) < options.maxAgeDays;
    if (linkFresh && !quotes.due.has(url)) continue;
    urls.push(url);
    if (last !== undefined) previous.set(url, last);
  }
  urls.sort();
  // A review due on a fresh URL waits for its next visit: the freshness rule alone decides what is fetched.
  const wholePages = new Set(urls.filter((url) => quotes.due.has(url) || options.reviewPages?.has(url) === true));
  return { urls, cited: wanted.size, fresh: wanted.size - urls.length, quotes, wholePages, previous, uncited };
}
