/** Reads a whole page body for the quote checks, decoded from its Content-Encoding, up to a cap. */
import { pipeline, type Readable } from 'node:stream';
import { createDecoder } from './read-body-prefix.ts';

/** The bytes read, and how the read ended. */
export type PageBody =
  /** `complete`: the body ended before the cap; false when reading stopped at the cap. */
  | { kind: 'read'; bytes: Uint8Array; complete: boolean }
  /**
   * The body broke off (deadline, reset, corrupt compression), its compressed stream does not end cleanly
   * though the transfer did, or its coding is unknown: no text to judge.
   */
  | { kind: 'broken'; reason: string };

/**
 * Reads `body` until it ends or `cap` decoded bytes have arrived; the stream is always destroyed on
 * return. Unlike the link rules' prefix read, a page cut short by an error is not judged: a quote
 * missing from half a page proves nothing. Of a body over the cap only the first `overCapKept` bytes are
 * returned (default: the cap), copied alone rather than with the rest.
 */
export async function readPageBody(body: Readable, contentEncoding: string | undefined, cap: number, overCapKept = cap): Promise<PageBody> {
  const decoder = createDecoder(contentEncoding, 'strict');
  if (decoder === null) {
    body.destroy();
    return { kind: 'broken', reason: `content coding ${JSON.stringify(contentEncoding)} is not read` };
  }
  // The transfer ended as HTTP says it should (Content-Length or the last chunk): a failure after that is
  // the compressed stream's own, cut short or corrupt at its end.
  let transferEnded = false;
  body.once('end', () => (transferEnded = true));
  // Streaming decompression bounds the work by `cap` whatever the compression ratio.
  const decoded: Readable = decoder === undefined ? body : pipeline(body, decoder, () => {});
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of decoded as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size > cap) return { kind: 'read', bytes: plainBytes(Buffer.concat(chunks, Math.min(cap, overCapKept))), complete: false };
    }
    return { kind: 'read', bytes: plainBytes(Buffer.concat(chunks)), complete: true };
  } catch (error) {
    const message = (error as Error).message;
    if (transferEnded && decoder !== undefined) {
      const coding = contentEncoding!.trim().toLowerCase();
      return { kind: 'broken', reason: `the ${coding} coding does not end cleanly after ${size} decoded bytes (${message})` };
    }
    return { kind: 'broken', reason: `the body broke off after ${size} bytes (${message})` };
  } finally {
    decoded.destroy();
    body.destroy();
  }
}

/**
 * The same bytes as a plain Uint8Array view. A small Buffer lives inside Node's shared 8 KiB pool, and
 * Buffer#slice does not copy: a consumer that copies with `.slice()` and hands on `.buffer` (the PDF
 * worker transfer) would otherwise send the whole pool. Uint8Array#slice copies exactly the view.
 */
function plainBytes(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
