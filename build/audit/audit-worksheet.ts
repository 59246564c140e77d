/**
 * The strict fact audit's worksheet: one row per sampled record and audited field. The tool writes the
 * first six columns; a person fills `observedValue`, `verdict` and `note` from the archived page.
 */
import type { AuditSample } from './draw-audit-sample.ts';
import { AUDIT_FIELDS } from './read-audit-frame.ts';

/** The worksheet's columns, in order. */
export const AUDIT_COLUMNS = ['city', 'programId', 'field', 'storedValue', 'warcRecordId', 'passages', 'observedValue', 'verdict', 'note'] as const;

/** The columns the tool writes and a person must leave as they are. */
export const AUDIT_TOOL_COLUMNS = ['city', 'programId', 'field', 'storedValue', 'warcRecordId'] as const;

/** What a person may answer for one field. */
export const AUDIT_VERDICTS = ['match', 'mismatch', 'unverifiable'] as const;

/** One of AUDIT_VERDICTS. */
export type AuditVerdict = (typeof AUDIT_VERDICTS)[number];

/** One worksheet row, by column. */
export type AuditRow = Record<(typeof AUDIT_COLUMNS)[number], string>;

/**
 * The rows the tool writes for a sample, in frame order then field order, the person's columns empty;
 * `passages` gives a record's passages of its archived page, when they were read (`--archive`).
 */
export function auditWorksheetRows(sample: AuditSample, passages: ReadonlyMap<string, string> = new Map()): AuditRow[] {
  return sample.records.flatMap((record) =>
    AUDIT_FIELDS.map((field) => ({
      city: record.city,
      programId: record.programId,
      field,
      storedValue: record.stored[field],
      warcRecordId: record.warcRecordId ?? '',
      passages: passages.get(`${record.city}/${record.programId}`) ?? '',
      observedValue: '',
      verdict: '',
      note: '',
    })));
}

/** The key a row is matched by: the record and the field. */
export function auditRowKey(row: Pick<AuditRow, 'city' | 'programId' | 'field'>): string {
  return `${row.city}/${row.programId} ${row.field}`;
}
