// Writes fetched HTTP exchanges to the evidence archive as WARC 1.1 (warcio serializes; one gzip member per record),
// a repeated payload as an identical-payload-digest revisit, rolling files at a size, and indexing each record
// only once its bytes are on disk. Exchanges that arrive while a batch is being written go together in the next
// one: one write, one fsync and one index transaction for all, so a run's pace is not the disk's per-record latency.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { type FileHandle, open, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WARCRecord, WARCSerializer, WARC_1_1 } from 'warcio';
import { gzipWarcMember } from './gzip-warc-member.ts';
import { type ArchiveIndex, type ArchiveIndexRow, openArchiveIndex } from './archive-index.ts';
import { acquireArchiveLock } from './archive-lock.ts';
import { sha256Hex, warcPayloadDigest } from './payload-digest.ts';
import { type SealedFile, sealTornTails } from './seal-torn-tails.ts';
import { DEFAULT_ARCHIVE_ROLL_MIB, OPEN_WARC_SUFFIX, warcFilePath } from './warc-archive-layout.ts';
import { type WarcInfo, warcInfoMember } from './warcinfo-record.ts';

/** An HTTP header as sent or received, in order; repeated names stay separate pairs. */
export type ArchiveHeader = readonly [name: string, value: string];

/** The request half of an exchange. */
export interface ArchiveHttpRequest {
  method: string;
  headers: readonly ArchiveHeader[];
  /** The request body, when it has one (a model reviewer's prompt); a page fetch sends none. */
  payload?: Uint8Array;
}

/** Why a payload holds less than the whole body (WARC-Truncated's values). */
export type ArchiveTruncation = 'length' | 'time' | 'disconnect' | 'unspecified';

/** The response half of an exchange: status, headers and the entity body exactly as read. */
export interface ArchiveHttpResponse {
  status: number;
  statusText?: string;
  headers: readonly ArchiveHeader[];
  /** The bytes read, content-encoding kept, transfer-encoding removed. */
  payload: Uint8Array;
  /** Set when the run read less than the whole body. */
  truncated?: ArchiveTruncation;
}

/** One fetched hop: what was asked of which URL, from which address, and what came back. */
export interface ArchiveExchange {
  targetUri: string;
  /** When the request was sent (WARC-Date of both records). */
  date: Date;
  /** The remote address of the socket (through a proxy, the proxy's). */
  ipAddress?: string;
  request: ArchiveHttpRequest;
  response: ArchiveHttpResponse;
}

/** Where an exchange was archived: what an evidence line names. */
export interface ArchivedExchange {
  /** The response (or revisit) record's id. */
  responseRecordId: string;
  requestRecordId: string;
  responseType: 'response' | 'revisit';
  /** Hex SHA-256 of the payload (for a revisit, the identical payload it repeats). */
  payloadSha256: string;
  /** Archive-relative closed name of the file holding both records. */
  file: string;
}

/** An open archive writer; exchanges are written one at a time in call order. */
export interface ArchiveWriter {
  /** Writes, flushes and indexes the records of one exchange, resolving once they are indexed. */
  writeExchange(exchange: ArchiveExchange): Promise<ArchivedExchange>;
  /** Flushes and closes the current file (renaming it closed) and the index. */
  close(): Promise<void>;
  /** What opening sealed: `.open` files a killed writer left. */
  readonly sealed: readonly SealedFile[];
  readonly archiveDir: string;
}

/** Options for `openArchiveWriter`; `index` lets a caller share an open index (it is then not closed here). */
export interface ArchiveWriterOptions {
  archiveDir: string;
  /** Bytes after which the next record starts a new file (default 1024 MiB). */
  rollBytes?: number;
  now?: () => Date;
  pid?: number;
  index?: ArchiveIndex;
  /** Whether each batch is fsynced before it is indexed (default true; off only trades crash safety for speed). */
  syncEachExchange?: boolean;
  isProcessAlive?: (pid: number) => boolean;
  /** How long to wait for a prune to release the archive's lock before refusing (default 2 s). */
  lockWaitMs?: number;
  /** What the warcinfo record opening each file says (default: the software's name alone). */
  info?: WarcInfo;
}

/** The software a warcinfo names when the caller gives no version. */
export const ARCHIVE_SOFTWARE = 'home-repair-api';

/** Headers that carry credentials: never written to the archive. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

const EMPTY_SHA256 = sha256Hex(new Uint8Array());
const SERIALIZE = { digest: { algo: 'sha-256', prefix: 'sha256:', base32: true } } as const;

/** Headers as archived: credentials dropped, and Transfer-Encoding renamed since the payload is de-chunked. */
export function archivedHeaders(headers: readonly ArchiveHeader[]): [string, string][] {
  const kept: [string, string][] = [];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (CREDENTIAL_HEADERS.has(lower)) continue;
    kept.push([lower === 'transfer-encoding' ? `X-Archive-Orig-${name}` : name, value]);
  }
  return kept;
}

function requestTarget(uri: string): string {
  try {
    const url = new URL(uri);
    return `${url.pathname}${url.search}`;
  } catch {
    return uri;
  }
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  if (bytes.length > 0) yield bytes;
}

/**
 * One record as one gzip member. Both digests are computed here with node:crypto and handed to warcio, which
 * then keeps them (its own hashing instantiates WebAssembly per record, most of a record's cost); the block is
 * hashed over warcio's own serialization of the HTTP head, so the digest covers the bytes it writes.
 */
async function serialize(record: WARCRecord, payload: Uint8Array, payloadSha256: string): Promise<Uint8Array> {
  const head = record.httpHeaders ? Buffer.from(`${record.httpHeaders.toString()}\r\n`, 'utf8') : Buffer.alloc(0);
  const block = createHash('sha256').update(head).update(payload).digest('hex');
  record.warcHeaders.headers.set('WARC-Block-Digest', warcPayloadDigest(block));
  record.warcHeaders.headers.set('WARC-Payload-Digest', warcPayloadDigest(payloadSha256));
  return gzipWarcMember(await WARCSerializer.serialize(record, { ...SERIALIZE }));
}

/** Opens a writer on the archive at `archiveDir`, first sealing what a killed writer left there. */
export async function openArchiveWriter(options: ArchiveWriterOptions): Promise<ArchiveWriter> {
  const { archiveDir } = options;
  const rollBytes = options.rollBytes ?? DEFAULT_ARCHIVE_ROLL_MIB * 1024 * 1024;
  if (!(rollBytes > 0)) throw new Error(`archive roll size must be a positive number of bytes, got ${rollBytes}`);
  const now = options.now ?? (() => new Date());
  const pid = options.pid ?? process.pid;
  const syncEach = options.syncEachExchange ?? true;
  const info = options.info ?? { software: ARCHIVE_SOFTWARE };
  // Refused now rather than at the first file: a warcinfo that cannot be written would fail the run's first write.
  await warcInfoMember(info, now());
  mkdirSync(archiveDir, { recursive: true });
  // Shared: other writers may append beside this one, but no prune may move records while it runs.
  const releaseLock = acquireArchiveLock(archiveDir, { purpose: 'links check (archive writer)', mode: 'shared', waitMs: options.lockWaitMs ?? 2000 });
  const ownsIndex = options.index === undefined;
  let index: ArchiveIndex;
  let sealed: SealedFile[];
  try {
    index = options.index ?? openArchiveIndex(archiveDir);
    sealed = sealTornTails(archiveDir, index, { isProcessAlive: options.isProcessAlive });
  } catch (error) {
    releaseLock();
    throw error;
  }
  const startedAt = now();
  let sequence = 0;
  // `size` counts the bytes of the pending batch too: offsets are assigned before the batch is written.
  let current: { handle: FileHandle; file: string; size: number } | undefined;
  let pending: { chunks: Buffer[]; bytes: number; rows: ArchiveIndexRow[]; settle: Array<() => void> } = emptyBatch();
  const waiting: Array<{ exchange: ArchiveExchange; resolve: (done: ArchivedExchange) => void; reject: (error: Error) => void }> = [];
  let active = false;
  let running: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  let closed = false;

  function emptyBatch(): typeof pending {
    return { chunks: [], bytes: 0, rows: [], settle: [] };
  }

  async function flush(): Promise<void> {
    if (!current || pending.rows.length === 0) return;
    const batch = pending;
    pending = emptyBatch();
    const all = Buffer.concat(batch.chunks, batch.bytes);
    const start = current.size - batch.bytes;
    // One write for the batch: a kill leaves either nothing or a tail past the last indexed record.
    for (let written = 0; written < all.length;) {
      const { bytesWritten } = await current.handle.write(all, written, all.length - written, start + written);
      written += bytesWritten;
    }
    if (syncEach) await current.handle.datasync();
    index.insert(batch.rows);
    for (const settle of batch.settle) settle();
  }

  async function closeCurrent(): Promise<void> {
    if (!current) return;
    await flush();
    const { handle, file } = current;
    current = undefined;
    await handle.sync();
    await handle.close();
    await rename(join(archiveDir, file + OPEN_WARC_SUFFIX), join(archiveDir, file));
  }

  async function fileFor(bytes: number): Promise<{ handle: FileHandle; file: string; size: number }> {
    if (current && current.size > 0 && current.size + bytes > rollBytes) await closeCurrent();
    if (current) return current;
    for (;;) {
      sequence += 1;
      const file = warcFilePath(startedAt, pid, sequence);
      mkdirSync(dirname(join(archiveDir, file)), { recursive: true });
      if (existsSync(join(archiveDir, file))) continue;
      try {
        // 'wx': names are unique, so an existing file (closed or open) is never appended to.
        const handle = await open(join(archiveDir, file + OPEN_WARC_SUFFIX), 'wx');
        // The file's first record, written with the batch that holds its first exchange and never indexed: a
        // file the writer leaves with nothing indexed is still removed when sealed.
        const head = await warcInfoMember(info, now());
        pending.chunks.push(head);
        pending.bytes += head.length;
        current = { handle, file, size: head.length };
        return current;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  /** Serializes one exchange into the pending batch; `repeats` finds an earlier response with the same payload. */
  async function add(exchange: ArchiveExchange, repeats: Map<string, ArchiveIndexRow>, resolve: (done: ArchivedExchange) => void): Promise<void> {
    const { targetUri, request, response } = exchange;
    const warcDate = exchange.date.toISOString();
    const payloadSha256 = sha256Hex(response.payload);
    // An empty payload (HEAD, most redirects) is written whole: a revisit would only add headers to nothing.
    const original = response.payload.length === 0 ? undefined : repeats.get(payloadSha256) ?? index.responseByPayloadSha256(payloadSha256);
    const responseRecordId = `<urn:uuid:${randomUUID()}>`;
    const requestRecordId = `<urn:uuid:${randomUUID()}>`;
    const common: [string, string][] = [];
    if (exchange.ipAddress) common.push(['WARC-IP-Address', exchange.ipAddress]);
    const statusline = `HTTP/1.1 ${response.status} ${response.statusText ?? ''}`.trimEnd();
    const responseHeaders: [string, string][] = [['WARC-Record-ID', responseRecordId], ...common];
    if (response.truncated) responseHeaders.push(['WARC-Truncated', response.truncated]);
    let responseRecord: WARCRecord;
    if (original) {
      responseHeaders.push(['WARC-Refers-To', original.recordId]);
      responseRecord = WARCRecord.create({
        url: targetUri, date: warcDate, type: 'revisit', warcVersion: WARC_1_1, statusline,
        warcHeaders: responseHeaders, httpHeaders: archivedHeaders(response.headers),
        refersToUrl: original.targetUri, refersToDate: original.warcDate,
      });
    } else {
      responseRecord = WARCRecord.create({
        url: targetUri, date: warcDate, type: 'response', warcVersion: WARC_1_1, statusline,
        warcHeaders: responseHeaders, httpHeaders: archivedHeaders(response.headers),
      }, once(response.payload));
    }
    const requestRecord = WARCRecord.create({
      url: targetUri, date: warcDate, type: 'request', warcVersion: WARC_1_1,
      statusline: `${request.method} ${requestTarget(targetUri)} HTTP/1.1`,
      warcHeaders: [['WARC-Record-ID', requestRecordId], ['WARC-Concurrent-To', responseRecordId], ...common],
      httpHeaders: archivedHeaders(request.headers),
    }, once(request.payload ?? new Uint8Array()));
    const responseBytes = await serialize(responseRecord, original ? new Uint8Array() : response.payload, payloadSha256);
    const requestBytes = await serialize(requestRecord, request.payload ?? new Uint8Array(), request.payload === undefined ? EMPTY_SHA256 : sha256Hex(request.payload));
    const target = await fileFor(responseBytes.length + requestBytes.length);
    const offset = target.size;
    const responseRow: ArchiveIndexRow = {
      recordId: responseRecordId, type: original ? 'revisit' : 'response', targetUri: responseRecord.warcTargetURI ?? targetUri,
      warcDate, file: target.file, offset, length: responseBytes.length, payloadSha256,
      refersTo: original?.recordId ?? null, concurrentTo: null,
    };
    if (!original) repeats.set(payloadSha256, responseRow);
    pending.chunks.push(Buffer.from(responseBytes), Buffer.from(requestBytes));
    pending.bytes += responseBytes.length + requestBytes.length;
    target.size += responseBytes.length + requestBytes.length;
    pending.rows.push(responseRow, {
      recordId: requestRecordId, type: 'request', targetUri: requestRecord.warcTargetURI ?? targetUri, warcDate,
      file: target.file, offset: offset + responseBytes.length, length: requestBytes.length, payloadSha256: null,
      refersTo: null, concurrentTo: responseRecordId,
    });
    const done: ArchivedExchange = { responseRecordId, requestRecordId, responseType: original ? 'revisit' : 'response', payloadSha256, file: target.file };
    pending.settle.push(() => resolve(done));
  }

  async function drain(): Promise<void> {
    try {
      while (waiting.length > 0 && failure === undefined) {
        const batch = waiting.splice(0);
        try {
          const repeats = new Map<string, ArchiveIndexRow>();
          for (const item of batch) await add(item.exchange, repeats, item.resolve);
          await flush();
        } catch (error) {
          // What is on disk past the index is a torn tail the next writer seals; this one writes no more.
          failure = error as Error;
          pending = emptyBatch();
          for (const item of batch) item.reject(failure);
        }
      }
      for (const item of waiting.splice(0)) item.reject(failure as Error);
    } finally {
      // In the same step as the loop's last look at `waiting`, so no exchange waits for a drain that has ended.
      active = false;
    }
  }

  return {
    archiveDir,
    sealed,
    writeExchange(exchange) {
      if (closed) return Promise.reject(new Error(`archive writer for ${archiveDir} is closed`));
      if (failure) return Promise.reject(failure);
      return new Promise<ArchivedExchange>((resolve, reject) => {
        waiting.push({ exchange, resolve, reject });
        if (!active) {
          active = true;
          running = drain();
        }
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await running;
      if (failure === undefined) await closeCurrent();
      else await current?.handle.close();
      if (ownsIndex) index.close();
      releaseLock();
    },
  };
}
