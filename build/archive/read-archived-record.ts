// Reads one archived record back by id: its index row, WARC headers, HTTP status and headers, and payload (a
// revisit's from the record it refers to), checking that the payload still hashes to its digest.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { WARCParser } from 'warcio';
import type { ArchiveIndex, ArchiveIndexRow } from './archive-index.ts';
import { hexOfWarcPayloadDigest, sha256Hex } from './payload-digest.ts';
import { OPEN_WARC_SUFFIX } from './warc-archive-layout.ts';

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

/** One archived record as read back and checked. */
export interface ArchivedRecord {
  row: ArchiveIndexRow;
  /** The WARC header fields, in order. */
  warcHeaders: [string, string][];
  /** The HTTP status code (undefined for a request record). */
  httpStatus: number | undefined;
  /** The HTTP status line or request line. */
  httpStatusLine: string | undefined;
  /** The HTTP header fields as archived, in order. */
  httpHeaders: [string, string][];
  /** The payload bytes (a revisit's are those of the record it refers to); empty for a request. */
  payload: Uint8Array;
  /** The row the payload was read from (the record itself, or the response a revisit refers to). */
  payloadRow: ArchiveIndexRow;
  /** WARC-Truncated of the record, when the run read less than the whole body. */
  truncated: string | undefined;
}

interface ParsedMember {
  warcHeaders: [string, string][];
  httpStatus: number | undefined;
  httpStatusLine: string | undefined;
  httpHeaders: [string, string][];
  payload: Uint8Array;
}

async function readMember(archiveDir: string, row: ArchiveIndexRow): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(join(archiveDir, row.file), 'r');
  } catch (error) {
    // The writer indexes a file under its closed name while it is still being written.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    try {
      handle = await open(join(archiveDir, row.file + OPEN_WARC_SUFFIX), 'r');
    } catch {
      throw new ArchiveRecordError(row.file, row.recordId, 'file is missing');
    }
  }
  try {
    const member = Buffer.alloc(row.length);
    const { bytesRead } = await handle.read(member, 0, row.length, row.offset);
    if (bytesRead !== row.length) {
      throw new ArchiveRecordError(row.file, row.recordId, `file ends at ${row.offset + bytesRead}, before the indexed end ${row.offset + row.length}`);
    }
    return member;
  } finally {
    await handle.close();
  }
}

async function parseMember(row: ArchiveIndexRow, member: Uint8Array): Promise<ParsedMember> {
  let inflated: Buffer;
  try {
    inflated = gunzipSync(member);
  } catch (error) {
    throw new ArchiveRecordError(row.file, row.recordId, `not a gzip member at offset ${row.offset}: ${(error as Error).message}`);
  }
  try {
    const parser = new WARCParser([inflated], { keepHeadersCase: true });
    const record = await parser.parse();
    if (!record) throw new Error('no WARC record');
    const payload = await record.readFully(false);
    const http = record.httpHeaders;
    const status = http && row.type !== 'request' ? Number(http.statusCode) : undefined;
    return {
      warcHeaders: [...record.warcHeaders.headers],
      httpStatus: status,
      httpStatusLine: http?.statusline,
      httpHeaders: http ? [...http.headers] : [],
      payload,
    };
  } catch (error) {
    if (error instanceof ArchiveRecordError) throw error;
    throw new ArchiveRecordError(row.file, row.recordId, `not a WARC record: ${(error as Error).message}`);
  }
}

function header(headers: readonly [string, string][], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find(([key]) => key.toLowerCase() === lower)?.[1];
}

async function readChecked(archiveDir: string, row: ArchiveIndexRow): Promise<ParsedMember> {
  const parsed = await parseMember(row, await readMember(archiveDir, row));
  const id = header(parsed.warcHeaders, 'WARC-Record-ID');
  if (id !== row.recordId) throw new ArchiveRecordError(row.file, row.recordId, `offset ${row.offset} holds record ${id ?? '(none)'}`);
  const type = header(parsed.warcHeaders, 'WARC-Type');
  if (type !== row.type) throw new ArchiveRecordError(row.file, row.recordId, `indexed as ${row.type}, written as ${type ?? '(none)'}`);
  return parsed;
}

/** Reads the record `recordId` of the archive at `archiveDir` through its open index (see the file head). */
export async function readArchivedRecord(archiveDir: string, index: ArchiveIndex, recordId: string): Promise<ArchivedRecord> {
  const row = index.byRecordId(recordId);
  if (!row) throw new ArchiveRecordError(undefined, recordId, 'not in the archive index');
  const parsed = await readChecked(archiveDir, row);
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
    payload = (await readChecked(archiveDir, original)).payload;
  }
  if (row.type !== 'request') {
    const actual = sha256Hex(payload);
    const written = hexOfWarcPayloadDigest(header(parsed.warcHeaders, 'WARC-Payload-Digest') ?? '');
    if (actual !== row.payloadSha256 || actual !== written) {
      throw new ArchiveRecordError(payloadRow.file, payloadRow.recordId,
        `payload sha256 ${actual} does not match its digest ${row.payloadSha256 ?? '(none)'}`);
    }
  }
  return { ...parsed, row, payload, payloadRow, truncated: header(parsed.warcHeaders, 'WARC-Truncated') };
}
