/** `hra changes detect` without the command line: detect, plan and append in one call. */
import type Database from 'better-sqlite3';
import type { ChangeEventRow, Corpus } from '../corpus/corpus-types.ts';
import { corpusValidator } from '../corpus/corpus-validators.ts';
import { describeFailures } from '../corpus/schema-validator.ts';
import { CHANGE_TYPES, type ChangeType } from '../contract/vocab-enums.ts';
import { appendChangeLog } from './append-change-log.ts';
import { detectChanges } from './detect-changes.ts';
import { planChangeEvents } from './plan-change-events.ts';

/** Inputs of recordDetectedChanges; `previous` is an open, format-checked snapshot. */
export interface RecordDetectedChangesOptions {
  previous: Database.Database;
  corpus: Corpus;
  /** Already checked with isChangeTimestamp. */
  detectedAt: string;
  onProgress?: (message: string) => void;
}

/** What was appended: `firstId`/`lastId` are null when nothing was; `byType` lists only types that occur. */
export interface ChangeDetectionSummary {
  /** Changes between the previous snapshot and the corpus, including those the log already held. */
  detected: number;
  added: number;
  firstId: number | null;
  lastId: number | null;
  byType: Partial<Record<ChangeType, number>>;
  events: ChangeEventRow[];
}

/**
 * Detects the changes between `previous` and the corpus, drops those the log already holds (the rule is
 * planChangeEvents's) and appends the rest to the corpus's change log atomically.
 */
export function recordDetectedChanges(options: RecordDetectedChangesOptions): ChangeDetectionSummary {
  const { previous, corpus, detectedAt, onProgress = () => {} } = options;
  const detected = detectChanges(previous, corpus, onProgress);
  const previousMaxId = (previous.prepare('SELECT MAX(id) FROM changes').pluck().get() as number | null) ?? 0;
  const events = planChangeEvents(detected, { log: corpus.changes, previousMaxId, detectedAt });
  // Checked against the loader's own schema before writing, so the appended log always loads again.
  const validate = corpusValidator('changeEventRow');
  for (const event of events) {
    const failure = describeFailures(validate, event)[0];
    if (failure) throw new Error(`change event ${event.id} ${failure.path}: ${failure.message}`);
  }
  appendChangeLog(corpus.root, events);
  const byType: Partial<Record<ChangeType, number>> = {};
  for (const type of CHANGE_TYPES) {
    const count = events.filter((event) => event.type === type).length;
    if (count > 0) byType[type] = count;
  }
  return { detected: detected.length, added: events.length, firstId: events[0]?.id ?? null, lastId: events.at(-1)?.id ?? null, byType, events };
}
