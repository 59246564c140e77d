/**
 * An archived payload read as the weekly run read the live body for its quote checks: decoded from its
 * Content-Encoding by the fetch path's reader (read-page-body.ts), up to its type's cap.
 */
import { Readable } from 'node:stream';
import { readPageBody, type PageBody } from '../links/read-page-body.ts';
import { capFor } from '../quotes/extract-page-text.ts';
import type { ArchivedResponse } from './archived-response.ts';

/** The bytes kept of a body over its cap (send-request.ts keeps as many): enough for the format sniff. */
const OVER_CAP_KEPT_BYTES = 1024;

/**
 * The page as the run handed it to the quote checks. A record truncated for its length was a body over its
 * cap (or declared so): never complete. One cut short otherwise (a deadline, a reset) was a broken body.
 */
export async function readArchivedPage(response: ArchivedResponse, contentType: string | null): Promise<PageBody> {
  const coding = single(response.headers['content-encoding']);
  const truncated = response.truncated?.trim().toLowerCase();
  if (truncated !== undefined && truncated !== 'length') {
    return { kind: 'broken', reason: `the archived body was cut short (WARC-Truncated: ${truncated})` };
  }
  const page = await readPageBody(streamOf(response.payload), coding, capFor(contentType), OVER_CAP_KEPT_BYTES);
  if (page.kind === 'read' && truncated === 'length' && page.complete) {
    return { kind: 'read', bytes: page.bytes.subarray(0, Math.min(page.bytes.byteLength, OVER_CAP_KEPT_BYTES)), complete: false };
  }
  return page;
}

/** The payload as a byte stream, as the fetch path's readers take a body. */
export function streamOf(payload: Uint8Array): Readable {
  return Readable.from([Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)], { objectMode: false });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
