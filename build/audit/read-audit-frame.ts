/**
 * The strict fact audit's sampling frame: every licensed live-city row (served, not withheld), as the build
 * serves it (corrections applied), with the five audited fields and the archived page a person checks.
 */
import type { Corpus } from '../corpus/corpus-types.ts';
import { visitServedRecords } from '../derive/visit-served-records.ts';
import { latestAttemptByUrl } from '../links/latest-attempt.ts';

/** The fields the strict audit checks, in worksheet order. */
export const AUDIT_FIELDS = ['maxAmount', 'fundingStatus', 'phone', 'url', 'deadline'] as const;

/** One of AUDIT_FIELDS. */
export type AuditField = (typeof AUDIT_FIELDS)[number];

/** What the sample may be stratified by. */
export const AUDIT_STRATA = ['city', 'confidence'] as const;

/** One of AUDIT_STRATA. */
export type AuditStrata = (typeof AUDIT_STRATA)[number];

/** One record of the frame. */
export interface FrameRecord {
  city: string;
  programId: string;
  /** The program's name and cited URL as served (the URL null when none is on file). */
  name: string;
  url: string | null;
  /** The stratum it falls in under the chosen strata: its city slug, or its served confidence tier. */
  stratum: string;
  /** Each audited field as served: text as is, a number in JSON form, empty when absent or null. */
  stored: Record<AuditField, string>;
  /** The WARC-Record-ID of the archived response behind the URL's latest link check, when it was archived. */
  warcRecordId: string | undefined;
  /** That response's payload digest (hex SHA-256), as the link check recorded it. */
  payloadSha256: string | undefined;
}

/** Reads the frame in a stable order: by city slug, then program id (code-unit order). */
export function readAuditFrame(corpus: Corpus, strata: AuditStrata): FrameRecord[] {
  const latest = latestAttemptByUrl(corpus.linkChecks);
  const frame: FrameRecord[] = [];
  visitServedRecords(corpus, ({ city, record, served }) => {
    const stored = Object.fromEntries(AUDIT_FIELDS.map((field) => [field, cell(served[field])])) as Record<AuditField, string>;
    const check = record.url === null ? undefined : latest.get(record.url);
    frame.push({
      city,
      programId: record.id,
      name: record.name,
      url: record.url,
      stratum: strata === 'city' ? city : record.freshness.confidence,
      stored,
      warcRecordId: check?.warcRecordId,
      payloadSha256: check?.payloadSha256,
    });
  }, { national: false });
  return frame.sort((a, b) => compare(a.city, b.city) || compare(a.programId, b.programId));
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Code-unit order, the same on every machine and locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
