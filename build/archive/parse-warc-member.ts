/**
 * Parses one inflated gzip member as one WARC record, after holding its header blocks (the WARC head, and
 * the HTTP head of a request, response or revisit) to MAX_HEADER_LINE_BYTES a line and MAX_HEADER_BLOCK_BYTES
 * a block: warcio would gather a header line of any length into one string.
 */
import { WARCParser } from 'warcio';
import { MAX_HEADER_BLOCK_BYTES, MAX_HEADER_LINE_BYTES } from './archive-read-limits.ts';

/** One record as parsed: headers in order, the HTTP head if any, and the raw payload (content-encoding kept). */
export interface ParsedWarcMember {
  /** The WARC header fields, in order. */
  warcHeaders: [string, string][];
  /** The HTTP status code of a response or revisit, else undefined. */
  httpStatus: number | undefined;
  /** The HTTP status line or request line. */
  httpStatusLine: string | undefined;
  /** The HTTP header fields as archived, in order. */
  httpHeaders: [string, string][];
  payload: Uint8Array;
}

/** A member that is not a WARC record within the bounds; the message says why. */
export class WarcMemberError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WarcMemberError';
  }
}

const CRLF = Buffer.from('\r\n');

/** Parses `inflated` (see the file head); throws WarcMemberError. */
export async function parseWarcMember(inflated: Buffer): Promise<ParsedWarcMember> {
  const warcEnd = checkHeaderBlock(inflated, 0, 'WARC');
  if (/^content-type:[ \t]*application\/http/im.test(inflated.subarray(0, warcEnd).toString('latin1'))) checkHeaderBlock(inflated, warcEnd, 'HTTP');
  try {
    const record = await new WARCParser([inflated], { keepHeadersCase: true }).parse();
    if (!record) throw new Error('no WARC record');
    const payload = await record.readFully(false);
    const http = record.httpHeaders;
    const type = record.warcType;
    const status = http && (type === 'response' || type === 'revisit') ? Number(http.statusCode) : undefined;
    return {
      warcHeaders: [...record.warcHeaders.headers],
      httpStatus: status,
      httpStatusLine: http?.statusline,
      httpHeaders: http ? [...http.headers] : [],
      payload,
    };
  } catch (error) {
    throw new WarcMemberError(`not a WARC record: ${(error as Error).message}`);
  }
}

/** The first header field named `name` (any case), or undefined. */
export function warcHeader(headers: readonly [string, string][], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find(([key]) => key.toLowerCase() === lower)?.[1];
}

/** The index just past the blank line ending the header block at `start`; throws past either bound. */
function checkHeaderBlock(bytes: Buffer, start: number, what: string): number {
  const limit = Math.min(bytes.length, start + MAX_HEADER_BLOCK_BYTES);
  for (let at = start; ;) {
    const end = bytes.indexOf(CRLF, at);
    if (end < 0 || end + 2 > limit) {
      if (limit - at > MAX_HEADER_LINE_BYTES || (end >= 0 && end + 2 - at > MAX_HEADER_LINE_BYTES)) throw new WarcMemberError(`a line of the ${what} head is longer than ${MAX_HEADER_LINE_BYTES} bytes`);
      if (limit === bytes.length) throw new WarcMemberError(`the ${what} header block has no end`);
      throw new WarcMemberError(`the ${what} header block is longer than ${MAX_HEADER_BLOCK_BYTES} bytes`);
    }
    if (end + 2 - at > MAX_HEADER_LINE_BYTES) throw new WarcMemberError(`a line of the ${what} head is longer than ${MAX_HEADER_LINE_BYTES} bytes`);
    if (end === at) return end + 2;
    at = end + 2;
  }
}
