/** Tallies a link-check run as attempts finish: counts per outcome and the URLs whose outcome moved. */
import type { LinkCheck } from '../corpus/corpus-types.ts';
import type { LinkOutcome } from './link-check-types.ts';

/** A URL whose outcome differs from its previous attempt's. */
export interface ChangedLink {
  url: string;
  from: LinkOutcome;
  to: LinkOutcome;
  /** The new attempt's status. */
  httpStatus: number | null;
  /** Why the new attempt concluded as it did. */
  reason: string;
}

/** The run's figures so far. */
export interface LinkRunTally {
  checked: number;
  outcomes: Record<LinkOutcome, number>;
  /** URLs checked for the first time (no previous attempt to compare with). */
  firstChecks: number;
  /** In completion order. */
  changed: ChangedLink[];
}

/**
 * Creates a tally comparing each new attempt with `previous` (the latest attempt before the run). A URL is
 * added once, so its entry is dropped from `previous` once compared: a run holds the previous attempts only
 * of the URLs it has yet to finish.
 */
export function createLinkRunTally(previous: Map<string, LinkCheck>): { add(check: LinkCheck, reason: string): void; tally: LinkRunTally } {
  const tally: LinkRunTally = { checked: 0, outcomes: { live: 0, dead: 0, 'bot-blocked': 0, inconclusive: 0 }, firstChecks: 0, changed: [] };
  return {
    tally,
    add(check, reason) {
      tally.checked += 1;
      tally.outcomes[check.outcome] += 1;
      const before = previous.get(check.url);
      previous.delete(check.url);
      if (before === undefined) tally.firstChecks += 1;
      else if (before.outcome !== check.outcome) {
        tally.changed.push({ url: check.url, from: before.outcome, to: check.outcome, httpStatus: check.httpStatus, reason });
      }
    },
  };
}
