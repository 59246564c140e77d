/** What the weekly quote checks say about one review's quote (corpus/README.md, "Quote checks"). */
import type { QuoteCheck, SourceReview } from '../corpus/corpus-types.ts';
import { quoteDigest } from './quote-digest.ts';

/** A conclusive quote check: `found` or `not-found`. */
export type ConclusiveQuoteCheck = QuoteCheck & { outcome: 'found' | 'not-found' };

/**
 * The latest conclusive check of `review`'s quote on `url`, or undefined when none exists (the review
 * then keeps its hand-typed `quoteFoundInPage`). A check counts only when it names this review (same
 * `reviewedAt`), the quote as it stands now (same SHA-256) and the URL the record cites now: a check of
 * an older quote or of a URL a correction has since replaced says nothing about what is served.
 * A date with re-derived checks (`rederived`, from `hra quotes replay`) counts only by the last of them,
 * whatever its outcome: it re-judged that date's fetch, so the lines it replaces say nothing any more.
 * Latest: greatest `checkedAt`; on the same date the later element (file line) wins. `inconclusive`
 * checks are skipped, so a page that failed to load keeps the last conclusive verdict.
 */
export function latestConclusiveQuoteCheck(review: SourceReview, url: string | null, checks: readonly QuoteCheck[]): ConclusiveQuoteCheck | undefined {
  if (review.kind !== 'amount' || review.amountQuote === undefined || url === null || checks.length === 0) return undefined;
  const digest = quoteDigest(review.amountQuote);
  const names = (check: QuoteCheck) => check.reviewedAt === review.reviewedAt && check.quoteSha256 === digest && check.url === url;
  // Per date, the last re-derivation of its fetch: it alone speaks for that date.
  const rederivedAt = new Map<string, QuoteCheck>();
  for (const check of checks) if (check.rederived !== undefined && names(check)) rederivedAt.set(check.checkedAt, check);
  let best: ConclusiveQuoteCheck | undefined;
  for (const check of checks) {
    if (check.outcome === 'inconclusive' || !names(check)) continue;
    const replacement = rederivedAt.get(check.checkedAt);
    if (replacement !== undefined && replacement !== check) continue;
    if (best === undefined || check.checkedAt >= best.checkedAt) best = check as ConclusiveQuoteCheck;
  }
  return best;
}

/** The outcome of latestConclusiveQuoteCheck, or undefined when the quote was never checked conclusively. */
export function mechanicalQuoteVerdict(review: SourceReview, url: string | null, checks: readonly QuoteCheck[]): 'found' | 'not-found' | undefined {
  return latestConclusiveQuoteCheck(review, url, checks)?.outcome;
}
