/** The "likely closed" rule: a URL that answered 404 or 410 at each of its last three check dates. */
import type { LinkCheck } from '../corpus/corpus-types.ts';

/** Check dates a URL must have failed on, one after another. */
export const LIKELY_CLOSED_STRIKES = 3;

/**
 * Returns the dates (oldest first) of the URL's last three conclusive attempts when each answered 404
 * or 410, else undefined. Conclusive: `live`, `dead` or `bot-blocked` (an `inconclusive` attempt says
 * nothing about the page, so it neither counts nor breaks a run). One attempt counts per date, the
 * latest of that date (later line wins, as for linkStatus), so three dates are always three different
 * days, and a same-day re-check replaces that day's answer instead of adding a strike. A soft 404
 * (`dead` with status 200) is conclusive but not a 404, so it breaks the run.
 */
export function findLikelyClosed(attempts: readonly LinkCheck[]): string[] | undefined {
  const byDate = new Map<string, LinkCheck>();
  for (const attempt of attempts) {
    // In file order, so a later line of the same date replaces an earlier one.
    if (attempt.outcome !== 'inconclusive') byDate.set(attempt.checkedAt, attempt);
  }
  const last = [...byDate.keys()].sort().slice(-LIKELY_CLOSED_STRIKES);
  if (last.length < LIKELY_CLOSED_STRIKES) return undefined;
  const gone = last.every((date) => {
    const status = byDate.get(date)?.httpStatus;
    return status === 404 || status === 410;
  });
  return gone ? last : undefined;
}
