/** The facts of a served record that change events report, read back from its Program body JSON. */
import type { FundingStatus, LinkStatus } from '../contract/vocab-enums.ts';

/** What detection compares between two revisions of one record. */
export interface RecordFacts {
  name: string;
  fundingStatus: FundingStatus;
  /** `null` both when the body says `null` and when it omits the field, so the two never differ. */
  maxAmount: number | null;
  linkStatus: LinkStatus;
}

/**
 * Reads the facts from a record body (the snapshot's `programs.body` or a freshly derived body); both
 * sides go through this one function so a difference is always a difference in served bytes.
 */
export function readRecordFacts(body: string | Uint8Array, label: string): RecordFacts {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const record = JSON.parse(text) as {
    name?: unknown;
    fundingStatus?: unknown;
    maxAmount?: unknown;
    freshness?: { linkStatus?: unknown };
  };
  const { name, fundingStatus, maxAmount } = record;
  const linkStatus = record.freshness?.linkStatus;
  if (typeof name !== 'string' || typeof fundingStatus !== 'string' || typeof linkStatus !== 'string') {
    throw new Error(`${label}: record body lacks name, fundingStatus or freshness.linkStatus`);
  }
  if (maxAmount !== undefined && maxAmount !== null && typeof maxAmount !== 'number') {
    throw new Error(`${label}: record body has a non-numeric maxAmount`);
  }
  return {
    name,
    fundingStatus: fundingStatus as FundingStatus,
    maxAmount: maxAmount ?? null,
    linkStatus: linkStatus as LinkStatus,
  };
}
