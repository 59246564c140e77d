/**
 * Finds one response in one WARC file by its record id, with no index: the file is read member by member
 * (one gzip member per record, as the archive writes them; a `warcinfo` record may come first), each through
 * the bounded reader, so a hostile file costs at most one record's bounds. A revisit is followed to the
 * record it repeats when the same file holds it.
 */
import type { FileHandle } from 'node:fs/promises';
import type { ArchivedResponse } from './archived-response.ts';
import { NotRegularFileError, openRegularFile } from './open-regular-file.ts';
import { parseWarcMember, warcHeader, WarcMemberError, type ParsedWarcMember } from './parse-warc-member.ts';
import { hexOfWarcPayloadDigest, sha256Hex } from './payload-digest.ts';
import { GzipMemberError, readGzipMember } from './read-gzip-member.ts';

/** A WARC file that cannot be read as one, or that lacks what was asked for; the message names file and record. */
export class WarcRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WarcRecordError';
  }
}

/**
 * The response or revisit `recordId` of `file`, its payload that of the response a revisit repeats, checked
 * against its payload digest.
 */
export async function findWarcRecord(file: string, recordId: string): Promise<ArchivedResponse> {
  let opened;
  try {
    opened = await openRegularFile(file);
  } catch (error) {
    if (!(error instanceof NotRegularFileError)) throw error;
    throw new WarcRecordError(error.code === 'ENOENT' ? `${file}: WARC file not found (looking for record ${recordId})` : `${file}: ${error.problem}`);
  }
  const { handle, size } = opened;
  try {
    const record = await scan(handle, size, file, recordId);
    if (record === undefined) throw new WarcRecordError(`${file}: no record ${recordId} in the file`);
    const type = warcHeader(record.warcHeaders, 'WARC-Type');
    if (type !== 'response' && type !== 'revisit') throw new WarcRecordError(`${file}: record ${recordId} is a ${type ?? '(untyped)'} record, not a response`);
    if (record.httpStatus === undefined || !Number.isInteger(record.httpStatus)) throw new WarcRecordError(`${file}: record ${recordId} holds no HTTP response`);
    let holder = record;
    let holderId = recordId;
    if (type === 'revisit') {
      const refersTo = warcHeader(record.warcHeaders, 'WARC-Refers-To');
      if (!refersTo) throw new WarcRecordError(`${file}: revisit ${recordId} names no WARC-Refers-To`);
      const original = await scan(handle, size, file, refersTo);
      if (original === undefined) {
        throw new WarcRecordError(`${file}: record ${recordId} is a revisit of ${refersTo}, which this file does not hold (read it from the archive with hra quotes replay)`);
      }
      holder = original;
      holderId = `${refersTo} (the record ${recordId} revisits)`;
    }
    // A payload that no longer hashes to its digest is not the page the run read: nothing is judged on it.
    const written = hexOfWarcPayloadDigest(warcHeader(holder.warcHeaders, 'WARC-Payload-Digest') ?? '');
    const actual = sha256Hex(holder.payload);
    if (written !== actual) {
      throw new WarcRecordError(`${file}: record ${holderId}: payload sha256 ${actual} does not match its WARC-Payload-Digest ${written ?? '(none)'}`);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of record.httpHeaders) headers[name.toLowerCase()] = value;
    const truncated = warcHeader(holder.warcHeaders, 'WARC-Truncated');
    return {
      file,
      recordId,
      targetUri: warcHeader(record.warcHeaders, 'WARC-Target-URI') ?? '',
      warcDate: warcHeader(record.warcHeaders, 'WARC-Date') ?? '',
      status: record.httpStatus,
      headers,
      payload: holder.payload,
      ...(truncated === undefined ? {} : { truncated }),
    };
  } finally {
    await handle.close();
  }
}

/** The record `recordId` of the file, or undefined once the file ends without it. */
async function scan(handle: FileHandle, size: number, file: string, recordId: string): Promise<ParsedWarcMember | undefined> {
  for (let offset = 0; offset < size;) {
    let member;
    let record;
    try {
      member = await readGzipMember(handle, size, offset);
      record = await parseWarcMember(member.inflated);
    } catch (error) {
      if (!(error instanceof GzipMemberError) && !(error instanceof WarcMemberError)) throw error;
      throw new WarcRecordError(`${file}: cannot be read as WARC while looking for record ${recordId} (at offset ${offset}: ${error.message})`);
    }
    if (warcHeader(record.warcHeaders, 'WARC-Record-ID') === recordId) return record;
    offset += member.length;
  }
  return undefined;
}
