/**
 * The newest dated evidence when it is later than the manifest's `asOf`: a corpus whose reviews would be
 * served as fresher than they are, since review staleness counts from `asOf`.
 */
import type { Corpus } from './corpus-types.ts';

/** The newest evidence date and the file it is in, if later than `asOf`. */
export interface AsOfLag {
  readonly asOf: string;
  readonly newest: string;
  readonly file: string;
}

/** Compares `asOf` with every link check's, quote check's and review's date. */
export function findAsOfLag(corpus: Pick<Corpus, 'manifest' | 'linkChecks' | 'quoteChecks' | 'sourceReviews'>): AsOfLag | undefined {
  let newest = { date: corpus.manifest.asOf, file: '' };
  const see = (date: string, file: string) => {
    // Dates and date-times alike: the day is the first ten characters.
    const day = date.slice(0, 10);
    if (day > newest.date) newest = { date: day, file };
  };
  for (const check of corpus.linkChecks) see(check.checkedAt, 'evidence/link-checks.ndjson');
  for (const check of corpus.quoteChecks) see(check.checkedAt, 'evidence/quote-checks.ndjson');
  for (const review of corpus.sourceReviews) see(review.reviewedAt, 'evidence/source-reviews.ndjson');
  return newest.file === '' ? undefined : { asOf: corpus.manifest.asOf, newest: newest.date, file: newest.file };
}
