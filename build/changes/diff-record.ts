/** Compares two revisions of one record and names each change a change event reports. */
import type { ChangeType } from '../contract/vocab-enums.ts';
import type { RecordFacts } from './record-facts.ts';

/** A change event before it has an id and a detection time. */
export interface DetectedChange {
  city: string;
  programId: string;
  programName: string | null;
  type: ChangeType;
  /** Funding statuses, except for `link-status-changed`, where they are link statuses. */
  fromStatus: string | null;
  toStatus: string | null;
  /** Present only on `amount-changed`. */
  fromAmount?: number | null;
  toAmount?: number | null;
}

/**
 * Lists the changes between `previous` and `current` (either may be absent), in CHANGE_TYPES order; one
 * record can yield several, e.g. a status and an amount change together.
 */
export function diffRecord(
  city: string,
  programId: string,
  previous: RecordFacts | undefined,
  current: RecordFacts | undefined,
): DetectedChange[] {
  if (!previous && !current) return [];
  if (!previous && current) {
    return [{ city, programId, programName: current.name, type: 'program-added', fromStatus: null, toStatus: current.fundingStatus }];
  }
  if (previous && !current) {
    return [{ city, programId, programName: previous.name, type: 'program-removed', fromStatus: previous.fundingStatus, toStatus: null }];
  }
  const before = previous as RecordFacts;
  const after = current as RecordFacts;
  const event = (type: ChangeType, fromStatus: string, toStatus: string): DetectedChange =>
    ({ city, programId, programName: after.name, type, fromStatus, toStatus });
  const changes: DetectedChange[] = [];
  if (before.fundingStatus !== after.fundingStatus) changes.push(event('status-changed', before.fundingStatus, after.fundingStatus));
  if (before.maxAmount !== after.maxAmount) {
    // The statuses ride along so a reader sees the amount in context, as the hand-written log does.
    changes.push({ ...event('amount-changed', before.fundingStatus, after.fundingStatus), fromAmount: before.maxAmount, toAmount: after.maxAmount });
  }
  if (before.linkStatus !== after.linkStatus) changes.push(event('link-status-changed', before.linkStatus, after.linkStatus));
  return changes;
}
