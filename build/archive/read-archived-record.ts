// Reads one archived record back by id: its index row, WARC headers, HTTP status and headers, and payload (a
// revisit's from the record it refers to), checking that the row is the record's and that the payload still
// hashes to its digest. Every read goes through the bounded primitives (open-archive-warc-file.ts,
// read-gzip-member.ts, parse-warc-member.ts).
import { ARCHIVE_RECORD_TYPES, type ArchiveIndex, type ArchiveIndexRow } from './archive-index.ts';
import { openArchiveWarcFile } from './open-archive-warc-file.ts';
import { parseWarcMember, warcHeader, WarcMemberError, type ParsedWarcMember } from './parse-warc-member.ts';
import { hexOfWarcPayloadDigest, sha256Hex } from './payload-digest.ts';
import { GzipMemberError, readGzipMember } from './read-gzip-member.ts';

/** A record that cannot be read as indexed; the message names the file and the record. */
export class ArchiveRecordError extends Error {
  readonly file: string | undefined;
  readonly recordId: string;
  constructor(file: string | undefined, recordId: string, problem: string) {
    super(file === undefined ? `record ${recordId}: ${problem}` : `${file} record ${recordId}: ${problem}`);
    this.name = 'ArchiveRecordError';
    this.file = file;
    this.recordId = recordId;
  }
}

/** A record id the index has no row for (as `hra archive prune` leaves a replaced record). */
export class ArchiveRecordMissingError extends ArchiveRecordError {
  constructor(recordId: string) {
    super(undefined, recordId, 'not in the archive index');
    this.name = 'ArchiveRecordMissingError';
  }
}

/** One archived record as read back and checked. */
export interface ArchivedRecord extends ParsedWarcMember {
  row: ArchiveIndexRow;
  /** The record's WARC-Target-URI, as written in its member (the row's, once they agree). */
  targetUri: string;
  /** The payload bytes (a revisit's are those of the record it refers to); empty for a request. */
  payload: Uint8Array;
  /** The row the payload was read from (the record itself, or the response a revisit refers to). */
  payloadRow: ArchiveIndexRow;
  /** WARC-Truncated of the record, when the run read less than the whole body. */
  truncated: string | undefined;
}

/**
 * Reads the member a row places and binds the row to it: the record's own headers must give the row's id,
 * type, target URI, the response a revisit repeats and the payload digest. The index only locates a record.
 */
export async function readIndexedMember(archiveDir: string, row: ArchiveIndexRow): Promise<ParsedWarcMember> {
  const fail = (problem: string) => new ArchiveRecordError(row.file, row.recordId, problem);
  if (!(ARCHIVE_RECORD_TYPES as readonly unknown[]).includes(row.type)) throw fail(`indexed with type ${JSON.stringify(row.type)}, not one the archive writes`);
  const { handle, size } = await openArchiveWarcFile(archiveDir, row.file, fail);
  let inflated: Buffer;
  try {
    inflated = (await readGzipMember(handle, size, row.offset, row.length)).inflated;
  } catch (error) {
    if (error instanceof GzipMemberError) throw fail(error.message);
    throw error;
  } finally {
    await handle.close();
  }
  let parsed: ParsedWarcMember;
  try {
    parsed = await parseWarcMember(inflated);
  } catch (error) {
    if (error instanceof WarcMemberError) throw fail(`at offset ${row.offset}: ${error.message}`);
    throw error;
  }
  const written = (name: string) => warcHeader(parsed.warcHeaders, name);
  const id = written('WARC-Record-ID');
  if (id !== row.recordId) throw fail(`offset ${row.offset} holds record ${id ?? '(none)'}`);
  const type = written('WARC-Type');
  if (type !== row.type) throw fail(`indexed as ${row.type}, written as ${type ?? '(none)'}`);
  const uri = written('WARC-Target-URI');
  if (uri !== row.targetUri) throw fail(`indexed as of ${row.targetUri}, written as of ${uri ?? '(none)'}`);
  if (row.type === 'revisit' && written('WARC-Refers-To') !== row.refersTo) {
    throw fail(`indexed as repeating ${row.refersTo ?? '(none)'}, written as repeating ${written('WARC-Refers-To') ?? '(none)'}`);
  }
  if (row.type !== 'request') {
    const digest = hexOfWarcPayloadDigest(written('WARC-Payload-Digest') ?? '');
    if (digest !== row.payloadSha256) throw fail(`indexed with payload digest ${row.payloadSha256 ?? '(none)'}, written with ${digest ?? '(none)'}`);
  }
  return parsed;
}

/** Reads the record `recordId` of the archive at `archiveDir` through its open index (see the file head). */
export async function readArchivedRecord(archiveDir: string, index: ArchiveIndex, recordId: string): Promise<ArchivedRecord> {
  const row = index.byRecordId(recordId);
  if (!row) throw new ArchiveRecordMissingError(recordId);
  const parsed = await readIndexedMember(archiveDir, row);
  let payloadRow = row;
  let payload = parsed.payload;
  if (row.type === 'revisit') {
    if (!row.refersTo) throw new ArchiveRecordError(row.file, row.recordId, 'revisit refers to no record');
    const original = index.byRecordId(row.refersTo);
    if (!original) throw new ArchiveRecordError(row.file, row.recordId, `refers to ${row.refersTo}, which is not in the archive index`);
    if (original.type !== 'response') {
      throw new ArchiveRecordError(row.file, row.recordId, `refers to ${row.refersTo}, a ${original.type} record`);
    }
    payloadRow = original;
    payload = (await readIndexedMember(archiveDir, original)).payload;
  }
  if (row.type !== 'request') {
    const actual = sha256Hex(payload);
    // The digest was bound to the row's when the member was read.
    if (actual !== row.payloadSha256) {
      throw new ArchiveRecordError(payloadRow.file, payloadRow.recordId,
        `payload sha256 ${actual} does not match its digest ${row.payloadSha256 ?? '(none)'}`);
    }
  }
  return { ...parsed, row, payload, payloadRow, targetUri: row.targetUri, truncated: warcHeader(parsed.warcHeaders, 'WARC-Truncated') };
}
