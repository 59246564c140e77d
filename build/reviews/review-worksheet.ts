/**
 * A person's review worksheet (`hra reviews export` / `hra reviews import`): one row per record, the tool's
 * five columns naming the record and the archived page, the reviewer's four left to fill.
 */

/** The worksheet's columns, in order. */
export const REVIEW_COLUMNS = ['city', 'programId', 'url', 'warcRecordId', 'passages', 'identity', 'amountQuote', 'statedAmount', 'note'] as const;

/** The columns the tool writes and a person must leave as they are (the passages are only an aid). */
export const REVIEW_TOOL_COLUMNS = ['city', 'programId', 'url', 'warcRecordId'] as const;

/** A person's identity verdict: the model's answer's vocabulary. */
export const REVIEW_IDENTITIES = ['match', 'mismatch', 'unsure'] as const;

/** One worksheet row, by column. */
export type ReviewRow = Record<(typeof REVIEW_COLUMNS)[number], string>;

/** How the passages of one page are set in one cell: each on its own, a blank line between. */
export function joinPassages(passages: readonly string[]): string {
  return passages.join('\n\n');
}
