/**
 * Crafts hostile WARC records as one gzip member each, for the tests that treat an archive as untrusted
 * input: a member whose payload inflates far past any record a run writes (written as a stream of zeros, so
 * the bomb is a few MB on disk and never whole in memory), or whose header line is too long.
 */
import { createWriteStream } from 'node:fs';
import { createGzip, gzipSync } from 'node:zlib';

/** What the WARC and HTTP heads of a crafted record say. */
export interface CraftedHead {
  id: string;
  type?: 'response' | 'revisit' | 'request';
  url: string;
  date?: string;
  /** Extra WARC header lines, as `Name: value` (a digest, a long line). */
  warcLines?: readonly string[];
  /** The HTTP head's lines after the status line; none for a record without one. */
  httpLines?: readonly string[];
}

/** The WARC head and HTTP head of a record whose content is `payloadBytes` long, ending where the payload starts. */
export function craftedHead(head: CraftedHead, payloadBytes: number): Buffer {
  const http = `HTTP/1.1 200 OK\r\n${(head.httpLines ?? ['Content-Type: text/html']).map((line) => `${line}\r\n`).join('')}\r\n`;
  const warc = ['WARC/1.1', `WARC-Type: ${head.type ?? 'response'}`, `WARC-Record-ID: ${head.id}`, `WARC-Target-URI: ${head.url}`,
    `WARC-Date: ${head.date ?? '2026-11-20T06:00:00.000Z'}`, 'Content-Type: application/http; msgtype=response',
    ...(head.warcLines ?? []), `Content-Length: ${Buffer.byteLength(http) + payloadBytes}`];
  return Buffer.from(`${warc.join('\r\n')}\r\n\r\n${http}`, 'latin1');
}

/** One small crafted record as a gzip member. */
export function craftedMember(head: CraftedHead, payload: Buffer): Buffer {
  return gzipSync(Buffer.concat([craftedHead(head, payload.length), payload, Buffer.from('\r\n\r\n')]));
}

/** Writes a record whose payload is `zeroBytes` zeros as one gzip member to `file`; resolves to the member's length. */
export async function writeZeroBomb(file: string, head: CraftedHead, zeroBytes: number): Promise<number> {
  const out = createWriteStream(file);
  const gzip = createGzip({ level: 9 });
  gzip.pipe(out);
  const chunk = Buffer.alloc(1024 * 1024);
  const write = (bytes: Buffer) => new Promise<void>((resolve) => (gzip.write(bytes) ? resolve() : gzip.once('drain', resolve)));
  await write(craftedHead(head, zeroBytes));
  for (let left = zeroBytes; left > 0; left -= chunk.length) await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
  await write(Buffer.from('\r\n\r\n'));
  gzip.end();
  await new Promise<void>((resolve, reject) => out.on('close', resolve).on('error', reject));
  return out.bytesWritten;
}
