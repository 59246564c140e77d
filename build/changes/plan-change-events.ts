/** Turns detected changes into the change-log rows to append: deduplicated, ordered and numbered. */
import type { ChangeEventRow } from '../corpus/corpus-types.ts';
import { CHANGE_TYPES } from '../contract/vocab-enums.ts';
import type { DetectedChange } from './diff-record.ts';

/** Inputs of planChangeEvents besides the detected changes. */
export interface ChangeEventPlanOptions {
  /** The change log as it stands, in file order. */
  log: readonly ChangeEventRow[];
  /** The highest change id the previous snapshot holds (0 for none): later ids were logged since it was built. */
  previousMaxId: number;
  /** The `--at` time every new event carries. */
  detectedAt: string;
}

/**
 * Plans the rows to append. Idempotency rule: a detected change is dropped when the log already holds
 * an event with the same city, programId, type, fromStatus, toStatus, fromAmount and toAmount and an id
 * above `previousMaxId`, that is, one logged since the previous snapshot was built, whatever its
 * detectedAt. Running detect again against the same snapshot therefore adds nothing, even with another
 * `--at`, while a later flip back (say closed -> available after available -> closed) is still logged.
 * New rows are ordered by city slug, program id, then type in CHANGE_TYPES order and numbered from the
 * log's highest id + 1; keys are written in spec 2.7 order, amounts only on `amount-changed`.
 */
export function planChangeEvents(detected: readonly DetectedChange[], options: ChangeEventPlanOptions): ChangeEventRow[] {
  const logged = new Set(options.log.filter((event) => event.id > options.previousMaxId).map(contentKey));
  let nextId = options.log.reduce((max, event) => Math.max(max, event.id), 0) + 1;
  return [...detected]
    .filter((change) => !logged.has(contentKey(change)))
    .sort(compareChanges)
    .map((change): ChangeEventRow => ({
      id: nextId++,
      detectedAt: options.detectedAt,
      city: change.city,
      programId: change.programId,
      programName: change.programName,
      type: change.type,
      fromStatus: change.fromStatus,
      toStatus: change.toStatus,
      ...(change.type === 'amount-changed' ? { fromAmount: change.fromAmount ?? null, toAmount: change.toAmount ?? null } : {}),
    }));
}

type EventContent = Pick<DetectedChange, 'city' | 'type' | 'fromStatus' | 'toStatus' | 'fromAmount' | 'toAmount'> & {
  programId?: string | undefined;
};

function contentKey(event: EventContent): string {
  return JSON.stringify([
    event.city, event.programId ?? null, event.type, event.fromStatus, event.toStatus, event.fromAmount ?? null, event.toAmount ?? null,
  ]);
}

function compareChanges(a: DetectedChange, b: DetectedChange): number {
  if (a.city !== b.city) return a.city < b.city ? -1 : 1;
  if (a.programId !== b.programId) return a.programId < b.programId ? -1 : 1;
  return CHANGE_TYPES.indexOf(a.type) - CHANGE_TYPES.indexOf(b.type);
}
