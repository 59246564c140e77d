/** Reads the start of a response body, decoded, no further than classification needs. */
import { pipeline, type Readable, type Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** How much of a body to read. */
export interface BodyPrefixOptions {
  /** Most decoded bytes kept; reading stops there. */
  cap: number;
  /** Reading stops once this appears (matched per chunk, with a little overlap); the rules need nothing after it. */
  stopAt: RegExp;
}

// Enough of the previous chunk to find a marker split across two chunks.
const OVERLAP = 16;

/**
 * Returns the decoded start of `body` as UTF-8 text, or undefined for a content coding it cannot
 * decode. The stream is always destroyed on return, so an unread remainder is never downloaded. A body
 * that breaks off (reset, corrupt gzip) yields what arrived before the break.
 */
export async function readBodyPrefix(body: Readable, contentEncoding: string | undefined, options: BodyPrefixOptions): Promise<string | undefined> {
  const decoder = createDecoder(contentEncoding);
  if (decoder === null) {
    body.destroy();
    return undefined;
  }
  // Streaming decompression bounds the work by `cap` whatever the compression ratio (no zip bombs).
  const decoded: Readable = decoder === undefined ? body : pipeline(body, decoder, () => {});
  const chunks: Buffer[] = [];
  let size = 0;
  let tail = '';
  try {
    for await (const chunk of decoded as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= options.cap) break;
      const window = tail + chunk.toString('latin1');
      if (options.stopAt.test(window)) break;
      tail = window.slice(-OVERLAP);
    }
  } catch {
    // Keep what arrived: the status and headers are known, and a partial page still has its title.
  } finally {
    decoded.destroy();
    body.destroy();
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks).subarray(0, options.cap));
}

/**
 * A streaming decoder of a Content-Encoding: undefined when none is needed, null for a coding we do not
 * read. `lenient` flushes what a compressed stream cut short holds and ends without an error (the link
 * rules read a prefix and stop early anyway); `strict` fails on a stream that does not end cleanly, so a
 * page cut short with an intact Content-Length is not taken for the whole page.
 */
export function createDecoder(contentEncoding: string | undefined, mode: 'lenient' | 'strict' = 'lenient'): Transform | undefined | null {
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  const lenient = mode === 'lenient';
  const flush = lenient ? { finishFlush: constants.Z_SYNC_FLUSH } : {};
  switch (coding) {
    case '':
    case 'identity': return undefined;
    case 'gzip':
    case 'x-gzip': return createGunzip(flush);
    case 'deflate': return createInflate(flush);
    case 'br': return createBrotliDecompress(lenient ? { finishFlush: constants.BROTLI_OPERATION_FLUSH } : {});
    default: return null;
  }
}
