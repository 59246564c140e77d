/** The digest that ties a quote check to the exact quote it searched for. */
import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256 of the quote's UTF-8 bytes, exactly as stored in the review (no trimming, no normalization). */
export function quoteDigest(quote: string): string {
  return createHash('sha256').update(quote, 'utf8').digest('hex');
}
