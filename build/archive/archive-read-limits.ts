/**
 * The bounds every archive reader holds a record to. They come from what the writer could have written: a
 * payload is at most what capture-exchange.ts captures, and a header block is small (undici refuses a
 * response head past 16 KiB; the WARC head is ours). A member past them was not written by a run.
 */
import { MAX_CAPTURED_BYTES } from '../links/capture-exchange.ts';

/** The longest payload a record holds: the capture's own cap. */
export const MAX_RECORD_PAYLOAD_BYTES = MAX_CAPTURED_BYTES;

/** The longest header line (WARC or HTTP), its CRLF included; well past a long URL. */
export const MAX_HEADER_LINE_BYTES = 64 * 1024;

/** The longest header block (the WARC head, or the HTTP head), its blank line included. */
export const MAX_HEADER_BLOCK_BYTES = 256 * 1024;

/** The most bytes one record inflates to: its payload and both header blocks. */
export const MAX_RECORD_BYTES = MAX_RECORD_PAYLOAD_BYTES + 2 * MAX_HEADER_BLOCK_BYTES;

/** The longest gzip member of one record: deflate adds 5 bytes per 16 KiB stored block, and a header. */
export const MAX_MEMBER_BYTES = MAX_RECORD_BYTES + 1024 * 1024;
