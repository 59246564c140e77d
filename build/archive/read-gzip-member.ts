/**
 * Reads one gzip member at an offset of an open file and inflates it, holding every number to a bound before
 * it is used: the offset and length are safe integers inside the file, the member is at most MAX_MEMBER_BYTES,
 * and inflating stops at MAX_RECORD_BYTES, so a member that would inflate to gigabytes costs at most that.
 */
import type { FileHandle } from 'node:fs/promises';
import { crc32, inflateRawSync } from 'node:zlib';
import { MAX_MEMBER_BYTES, MAX_RECORD_BYTES } from './archive-read-limits.ts';

/** A member that cannot be read or is not one; the message says why, with no file name (the caller adds it). */
export class GzipMemberError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GzipMemberError';
  }
}

/** One member inflated, and its length in the file. */
export interface GzipMember {
  readonly inflated: Buffer;
  readonly length: number;
}

/** The first bytes read when a member's length is not known (a scan); doubled until the member fits. */
const FIRST_WINDOW_BYTES = 64 * 1024;

const FTEXT_MASK = 0xe0;
const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;

/**
 * The member at `offset` of a file of `size` bytes. With `length` (an index row's), the member must be
 * exactly that long; without, it is read as far as it goes (a scan of a file with no index).
 */
export async function readGzipMember(handle: FileHandle, size: number, offset: unknown, length?: unknown): Promise<GzipMember> {
  if (!isByteCount(offset)) throw new GzipMemberError(`offset ${JSON.stringify(offset)} is not a byte offset`);
  if (offset >= size) throw new GzipMemberError(`offset ${offset} is past the file's end at ${size}`);
  if (length !== undefined) {
    if (!isByteCount(length) || length === 0) throw new GzipMemberError(`length ${JSON.stringify(length)} is not a byte count`);
    if (length > MAX_MEMBER_BYTES) throw new GzipMemberError(`length ${length} is past the ${MAX_MEMBER_BYTES} bytes a record's member may take`);
    if (offset + length > size) throw new GzipMemberError(`file ends at ${size}, before the indexed end ${offset + length}`);
    const member = await readAt(handle, offset, length);
    const parsed = inflateMember(member, offset, true);
    if (parsed.length !== length) throw new GzipMemberError(`the member at offset ${offset} is ${parsed.length} bytes, indexed as ${length}`);
    return parsed;
  }
  for (let window = Math.min(FIRST_WINDOW_BYTES, size - offset); ; window = Math.min(window * 2, size - offset, MAX_MEMBER_BYTES)) {
    const member = await readAt(handle, offset, window);
    const last = window === size - offset || window === MAX_MEMBER_BYTES;
    const parsed = inflateMember(member, offset, last);
    if (parsed !== undefined) return parsed;
  }
}

function isByteCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

async function readAt(handle: FileHandle, offset: number, length: number): Promise<Buffer> {
  const bytes = Buffer.alloc(length);
  const { bytesRead } = await handle.read(bytes, 0, length, offset);
  if (bytesRead !== length) throw new GzipMemberError(`file ends at ${offset + bytesRead}, before the member's end ${offset + length}`);
  return bytes;
}

/** The member at the start of `bytes`; undefined when `bytes` ends inside it and `whole` is false. */
function inflateMember(bytes: Buffer, offset: number, whole: true): GzipMember;
function inflateMember(bytes: Buffer, offset: number, whole: boolean): GzipMember | undefined;
function inflateMember(bytes: Buffer, offset: number, whole: boolean): GzipMember | undefined {
  const short = () => {
    if (whole) throw new GzipMemberError(`the gzip member at offset ${offset} ends past the bytes it was given`);
    return undefined;
  };
  if (bytes.length < 10) return short();
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b || bytes[2] !== 8) throw new GzipMemberError(`not a gzip member at offset ${offset}`);
  const flags = bytes[3]!;
  if ((flags & FTEXT_MASK) !== 0) throw new GzipMemberError(`not a gzip member at offset ${offset} (reserved flags set)`);
  let at = 10;
  if (flags & FEXTRA) {
    if (bytes.length < at + 2) return short();
    at += 2 + bytes.readUInt16LE(at);
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    const end = bytes.indexOf(0, at);
    if (end < 0) return short();
    at = end + 1;
  }
  if (flags & FHCRC) at += 2;
  if (at > bytes.length) return short();
  let inflated: Buffer;
  let consumed: number;
  try {
    const result = inflateRawSync(bytes.subarray(at), { info: true, maxOutputLength: MAX_RECORD_BYTES }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    inflated = result.buffer;
    consumed = result.engine.bytesWritten;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw new GzipMemberError(`the member at offset ${offset} inflates past ${MAX_RECORD_BYTES} bytes, more than any record a run writes`);
    if (code === 'Z_BUF_ERROR') return short();
    throw new GzipMemberError(`not a gzip member at offset ${offset}: ${(error as Error).message}`);
  }
  const trailer = at + consumed;
  if (bytes.length < trailer + 8) return short();
  if (bytes.readUInt32LE(trailer) !== crc32(inflated) || bytes.readUInt32LE(trailer + 4) !== inflated.length % 2 ** 32) {
    throw new GzipMemberError(`the gzip member at offset ${offset} fails its CRC or size check`);
  }
  return { inflated, length: trailer + 8 };
}
