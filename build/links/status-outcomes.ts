/**
 * The rows of the link-check outcome table (corpus/README.md, "Link checks") that the final status decides
 * alone. classifyResponse applies them; corpus validation uses them to refuse an attempt whose recorded
 * outcome no response with its recorded status could have produced, so the two cannot disagree.
 */
import type { LinkOutcome } from './link-check-types.ts';

/** Rules 2, 3 and 8, first match wins; a 2xx matches none and is decided by its page (rules 4-7). */
const STATUS_RULES: ReadonlyArray<{ readonly matches: (status: number) => boolean; readonly outcome: LinkOutcome }> = [
  { matches: (status) => status === 401 || status === 403, outcome: 'bot-blocked' },
  { matches: (status) => status === 404 || status === 410, outcome: 'dead' },
  { matches: (status) => status < 200 || status > 299, outcome: 'inconclusive' },
];

/** What rules 4-7 can make of a 2xx page: a challenge page, a soft 404, or a live page. */
const PAGE_OUTCOMES: readonly LinkOutcome[] = ['bot-blocked', 'dead', 'live'];

/** The outcome rules 2, 3 and 8 give `status`, or undefined for a 2xx, which its page decides. */
export function outcomeOfStatus(status: number): LinkOutcome | undefined {
  return STATUS_RULES.find((rule) => rule.matches(status))?.outcome;
}

/**
 * Every outcome the table allows for an attempt recorded with `httpStatus`. The record keeps neither
 * headers nor body, so rule 1 (a bot-wall challenge header, any status) keeps `bot-blocked` possible for
 * any response; no response at all (null) is only `inconclusive` (rule 9).
 */
export function outcomesAllowedFor(httpStatus: number | null): readonly LinkOutcome[] {
  if (httpStatus === null) return ['inconclusive'];
  const byStatus = outcomeOfStatus(httpStatus);
  return byStatus === undefined ? PAGE_OUTCOMES : [...new Set<LinkOutcome>(['bot-blocked', byStatus])];
}
