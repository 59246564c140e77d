/** A record's latest source review, by the rule the served freshness uses (spec 2.2). */
import type { SourceReview } from '../corpus/corpus-types.ts';

/** Greatest `reviewedAt`; on the same date the later element (file line) wins. */
export function latestReview(reviews: readonly SourceReview[]): SourceReview | undefined {
  let best: SourceReview | undefined;
  for (const review of reviews) if (best === undefined || review.reviewedAt >= best.reviewedAt) best = review;
  return best;
}
