/** The one loosening of amounts in quote matching (issue 31 item 9): `$5,000.00` and `$5,000` are one amount. */

// A `.00` right after a digit and not followed by one: `5,000.00` and `5.00`, never `5,000.001` or `$10.0`.
const ZERO_CENTS = /(?<=[0-9])\.00(?![0-9])/g;

/**
 * Returns normalized `text` without its zero cents tails, so a quote and a page that differ only by one match;
 * applied alike to both. Other cents (`$5,000.50`) and other forms (`$10K`) are left as they are.
 */
export function dropZeroCents(text: string): string {
  return text.includes('.00') ? text.replace(ZERO_CENTS, '') : text;
}
