/**
 * Writes small WARC files with warcio for tests that need one record by hand (a revisit without its
 * original, a payload the run never wrote); the archive's own writer is tested elsewhere.
 */
import { writeFileSync } from 'node:fs';
import { WARCRecord, WARCSerializer, WARC_1_1 } from 'warcio';

/** One record to write. */
export interface TestWarcRecord {
  type: 'response' | 'revisit' | 'request';
  id: string;
  url: string;
  status?: number;
  headers?: Record<string, string>;
  payload?: Uint8Array | string;
  /** For a revisit: the record it repeats. */
  refersTo?: string;
  /** Extra WARC headers (WARC-Truncated, a forged WARC-Payload-Digest...). */
  warcHeaders?: Record<string, string>;
}

/** Writes `records` to `file`, one gzip member each, payload digests as the archive writes them. */
export async function writeTestWarc(file: string, records: readonly TestWarcRecord[]): Promise<void> {
  const parts: Uint8Array[] = [];
  for (const one of records) {
    const payload = typeof one.payload === 'string' ? new TextEncoder().encode(one.payload) : one.payload ?? new Uint8Array();
    const warcHeaders: Record<string, string> = { 'WARC-Record-ID': one.id, ...one.warcHeaders };
    if (one.refersTo !== undefined) {
      warcHeaders['WARC-Refers-To'] = one.refersTo;
      warcHeaders['WARC-Profile'] = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';
    }
    const record = WARCRecord.create({
      url: one.url, date: '2026-11-20T06:00:00Z', type: one.type, warcVersion: WARC_1_1, warcHeaders,
      statusline: `HTTP/1.1 ${one.status ?? 200} OK`, httpHeaders: one.headers ?? {},
      ...(one.refersTo === undefined ? {} : { refersToUrl: one.url, refersToDate: '2026-11-13T06:00:00Z' }),
    }, one.type === 'revisit' ? undefined : [payload]);
    parts.push(await WARCSerializer.serialize(record, { gzip: true, digest: { algo: 'sha-256', prefix: 'sha256:', base32: true } }));
  }
  writeFileSync(file, Buffer.concat(parts));
}
