/**
 * Finds one response in one WARC file by its record id, with no index: the file is scanned with warcio's
 * parser. A revisit is followed to the record it repeats when the same file holds it.
 */
import { createReadStream } from 'node:fs';
import { WARCParser, type WARCRecord } from 'warcio';
import type { ArchivedResponse } from './archived-response.ts';
import { hexOfWarcPayloadDigest, sha256Hex } from './payload-digest.ts';

/** A WARC file that cannot be read as one, or that lacks what was asked for; the message names file and record. */
export class WarcRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WarcRecordError';
  }
}

interface Found {
  record: WARCRecord;
  payload: Uint8Array;
}

/**
 * The response or revisit `recordId` of `file`, its payload that of the response a revisit repeats, checked
 * against its payload digest.
 */
export async function findWarcRecord(file: string, recordId: string): Promise<ArchivedResponse> {
  const wanted = await scan(file, recordId);
  if (wanted === undefined) throw new WarcRecordError(`${file}: no record ${recordId} in the file`);
  const { record } = wanted;
  const type = record.warcType;
  if (type !== 'response' && type !== 'revisit') throw new WarcRecordError(`${file}: record ${recordId} is a ${type} record, not a response`);
  if (record.httpHeaders === null || typeof record.httpHeaders.statusCode !== 'number' || !Number.isInteger(record.httpHeaders.statusCode)) {
    throw new WarcRecordError(`${file}: record ${recordId} holds no HTTP response`);
  }
  let holder = wanted;
  if (type === 'revisit') {
    const refersTo = record.warcHeaders.headers.get('WARC-Refers-To');
    if (!refersTo) throw new WarcRecordError(`${file}: revisit ${recordId} names no WARC-Refers-To`);
    const original = await scan(file, refersTo);
    if (original === undefined) {
      throw new WarcRecordError(`${file}: record ${recordId} is a revisit of ${refersTo}, which this file does not hold (read it from the archive with hra quotes replay)`);
    }
    holder = original;
  }
  // A payload that no longer hashes to its digest is not the page the run read: nothing is judged on it.
  const written = hexOfWarcPayloadDigest(holder.record.warcPayloadDigest ?? '');
  const actual = sha256Hex(holder.payload);
  if (written !== actual) {
    const holderId = holder === wanted ? recordId : `${holder.record.warcHeaders.headers.get('WARC-Record-ID')} (the record ${recordId} revisits)`;
    throw new WarcRecordError(`${file}: record ${holderId}: payload sha256 ${actual} does not match its WARC-Payload-Digest ${written ?? '(none)'}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of record.httpHeaders.headers) headers[name.toLowerCase()] = value;
  const truncated = holder.record.warcHeaders.headers.get('WARC-Truncated') ?? undefined;
  return {
    file,
    recordId,
    targetUri: record.warcTargetURI ?? '',
    status: record.httpHeaders.statusCode,
    headers,
    payload: holder.payload,
    ...(truncated === undefined ? {} : { truncated }),
  };
}

/** The record `recordId` of `file` with its raw payload, or undefined once the file ends without it. */
async function scan(file: string, recordId: string): Promise<Found | undefined> {
  const stream = createReadStream(file);
  try {
    const parser = new WARCParser(stream);
    for await (const record of parser) {
      if (record.warcHeaders.headers.get('WARC-Record-ID') !== recordId) continue;
      // Raw: the payload as received, its content-encoding kept (the digest covers these bytes).
      return { record, payload: await record.readFully(false) };
    }
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new WarcRecordError(`${file}: WARC file not found (looking for record ${recordId})`);
    throw new WarcRecordError(`${file}: cannot be read as WARC while looking for record ${recordId} (${(error as Error).message})`);
  } finally {
    stream.destroy();
  }
}
