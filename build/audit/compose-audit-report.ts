/**
 * The strict fact audit's report (`corpus/reports/fact-audit-latest.json`, version 3) from a checked
 * worksheet: the draw, every verdict with the archived record it used, error counts per field, and the
 * record error rate with its Clopper-Pearson 95% upper bound (docs/decisions.md "The strict fact audit").
 */
import type { ReportArtifact } from '../corpus/corpus-types.ts';
import type { AuditDraw } from './audit-draw.ts';
import type { CheckedAuditRow } from './check-audit-worksheet.ts';
import { ERROR_BOUND, errorRateUpperBound } from '../contract/error-rate-upper-bound.ts';
import { AUDIT_FIELDS, type AuditField, type FrameRecord } from './read-audit-frame.ts';

/** The report's version: 3 adds the draw, the unit and the bound to version 2's hand-written shape. */
export const FACT_AUDIT_VERSION = 3;

/** Who checked, and whether the verdicts are only a demonstration. */
export interface AuditReportOptions {
  completedAt: string;
  reviewer: string;
  illustrative: boolean;
}

/** Composes the report; `sampled` gives each row's archived payload digest. */
export function composeAuditReport(draw: AuditDraw, rows: readonly CheckedAuditRow[], sampled: readonly FrameRecord[], options: AuditReportOptions): ReportArtifact {
  const digests = new Map(sampled.map((record) => [`${record.city}/${record.programId}`, record.payloadSha256]));
  const byRecord = new Map<string, CheckedAuditRow[]>();
  const fieldErrors = Object.fromEntries(AUDIT_FIELDS.map((field) => [field, { checked: 0, errors: 0, unverifiable: 0 }])) as Record<AuditField, { checked: number; errors: number; unverifiable: number }>;
  for (const row of rows) {
    const key = `${row.city}/${row.programId}`;
    byRecord.set(key, [...(byRecord.get(key) ?? []), row]);
    const tally = fieldErrors[row.field as AuditField];
    if (row.verdict === 'unverifiable') tally.unverifiable += 1;
    else tally.checked += 1;
    if (row.verdict === 'mismatch') tally.errors += 1;
  }
  let recordsAudited = 0;
  let factErrors = 0;
  let recordsUnverifiable = 0;
  for (const fields of byRecord.values()) {
    if (fields.every((row) => row.verdict === 'unverifiable')) recordsUnverifiable += 1;
    else recordsAudited += 1;
    if (fields.some((row) => row.verdict === 'mismatch')) factErrors += 1;
  }
  const records = [...rows]
    .sort((a, b) => compareKeys(a, b))
    .map((row) => {
      const payloadSha256 = digests.get(`${row.city}/${row.programId}`);
      return {
        city: row.city,
        programId: row.programId,
        field: row.field,
        storedValue: row.storedValue,
        observedValue: row.observedValue,
        verdict: row.verdict,
        ...(row.note === '' ? {} : { note: row.note }),
        ...(row.warcRecordId === '' ? {} : { warcRecordId: row.warcRecordId }),
        ...(row.warcRecordId === '' || payloadSha256 === undefined ? {} : { payloadSha256 }),
      };
    });
  return {
    artifact: 'fact-audit',
    version: FACT_AUDIT_VERSION,
    completedAt: options.completedAt,
    manifest: {
      method: 'stratified random sample of licensed live-city rows (hra audit sample); each field compared by a person against the archived page of the record\'s cited URL',
      population: 'licensed live-city rows',
      fields: [...AUDIT_FIELDS],
      unit: 'record: a record is in error when any of its fields is a mismatch; a record whose every field is unverifiable is not audited',
      reviewer: { kind: 'person', name: options.reviewer },
      ...(options.illustrative ? { illustrative: true } : {}),
      sampling: {
        algorithm: draw.algorithm,
        seed: draw.seed,
        size: draw.size,
        strata: draw.strata,
        frameDigest: draw.frameDigest,
        frameSize: draw.frameSize,
        strataDrawn: draw.strataDrawn,
      },
      errorBound: { ...ERROR_BOUND },
    },
    summary: {
      recordsAudited,
      factErrors,
      recordsUnverifiable,
      errorRate: recordsAudited === 0 ? null : Math.round((factErrors / recordsAudited) * 10_000) / 10_000,
      errorRateUpperBound: recordsAudited === 0 ? null : errorRateUpperBound(factErrors, recordsAudited),
      fieldErrors,
    },
    records,
  };
}

function compareKeys(a: CheckedAuditRow, b: CheckedAuditRow): number {
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return cmp(a.city, b.city) || cmp(a.programId, b.programId) || AUDIT_FIELDS.indexOf(a.field as AuditField) - AUDIT_FIELDS.indexOf(b.field as AuditField);
}
