// Writes fetched HTTP exchanges to the evidence archive as WARC 1.1 (warcio serializes; one gzip member per record),
// a repeated payload as an identical-payload-digest revisit, rolling files at a size, and indexing each record
// only once its bytes are on disk.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { type FileHandle, open, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WARCRecord, WARCSerializer, WARC_1_1 } from 'warcio';
import { type ArchiveIndex, type ArchiveIndexRow, openArchiveIndex } from './archive-index.ts';
import { sha256Hex, warcPayloadDigest } from './payload-digest.ts';
import { type SealedFile, sealTornTails } from './seal-torn-tails.ts';
import { DEFAULT_ARCHIVE_ROLL_MIB, OPEN_WARC_SUFFIX, warcFilePath } from './warc-archive-layout.ts';

/** An HTTP header as sent or received, in order; repeated names stay separate pairs. */
export type ArchiveHeader = readonly [name: string, value: string];

/** The request half of an exchange. */
export interface ArchiveHttpRequest {
  method: string;
  headers: readonly ArchiveHeader[];
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
  /** Whether each exchange is fsynced before it is indexed (default true; off only trades crash safety for speed). */
  syncEachExchange?: boolean;
  isProcessAlive?: (pid: number) => boolean;
}

/** Headers that carry credentials: never written to the archive. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

const REVISIT_PROFILE = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';
const SERIALIZE = { gzip: true, digest: { algo: 'sha-256', prefix: 'sha256:', base32: true } } as const;

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

async function serialize(record: WARCRecord): Promise<Uint8Array> {
  return WARCSerializer.serialize(record, { ...SERIALIZE });
}

/** Opens a writer on the archive at `archiveDir`, first sealing what a killed writer left there. */
export async function openArchiveWriter(options: ArchiveWriterOptions): Promise<ArchiveWriter> {
  const { archiveDir } = options;
  const rollBytes = options.rollBytes ?? DEFAULT_ARCHIVE_ROLL_MIB * 1024 * 1024;
  if (!(rollBytes > 0)) throw new Error(`archive roll size must be a positive number of bytes, got ${rollBytes}`);
  const now = options.now ?? (() => new Date());
  const pid = options.pid ?? process.pid;
  const syncEach = options.syncEachExchange ?? true;
  const ownsIndex = options.index === undefined;
  const index = options.index ?? openArchiveIndex(archiveDir);
  const sealed = sealTornTails(archiveDir, index, { isProcessAlive: options.isProcessAlive });
  const startedAt = now();
  let sequence = 0;
  let current: { handle: FileHandle; file: string; size: number } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  async function closeCurrent(): Promise<void> {
    if (!current) return;
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
        current = { handle, file, size: 0 };
        return current;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  async function write(exchange: ArchiveExchange): Promise<ArchivedExchange> {
    const { targetUri, request, response } = exchange;
    const warcDate = exchange.date.toISOString();
    const payloadSha256 = sha256Hex(response.payload);
    const original = index.responseByPayloadSha256(payloadSha256);
    const responseRecordId = `<urn:uuid:${randomUUID()}>`;
    const requestRecordId = `<urn:uuid:${randomUUID()}>`;
    const common: [string, string][] = [];
    if (exchange.ipAddress) common.push(['WARC-IP-Address', exchange.ipAddress]);
    const statusline = `HTTP/1.1 ${response.status} ${response.statusText ?? ''}`.trimEnd();
    const responseHeaders: [string, string][] = [['WARC-Record-ID', responseRecordId], ...common];
    if (response.truncated) responseHeaders.push(['WARC-Truncated', response.truncated]);
    let responseRecord: WARCRecord;
    if (original) {
      responseHeaders.push(
        ['WARC-Refers-To', original.recordId],
        ['WARC-Payload-Digest', warcPayloadDigest(payloadSha256)],
      );
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
    });
    const responseBytes = await serialize(responseRecord);
    const requestBytes = await serialize(requestRecord);
    const target = await fileFor(responseBytes.length + requestBytes.length);
    const offset = target.size;
    // One write for both members: a kill leaves either nothing or a tail past the last indexed record.
    const both = Buffer.concat([responseBytes, requestBytes]);
    let written = 0;
    while (written < both.length) {
      const { bytesWritten } = await target.handle.write(both, written, both.length - written, offset + written);
      written += bytesWritten;
    }
    target.size += both.length;
    if (syncEach) await target.handle.datasync();
    const rows: ArchiveIndexRow[] = [
      {
        recordId: responseRecordId, type: original ? 'revisit' : 'response', targetUri: responseRecord.warcTargetURI ?? targetUri,
        warcDate, file: target.file, offset, length: responseBytes.length, payloadSha256,
        refersTo: original?.recordId ?? null, concurrentTo: null,
      },
      {
        recordId: requestRecordId, type: 'request', targetUri: requestRecord.warcTargetURI ?? targetUri, warcDate,
        file: target.file, offset: offset + responseBytes.length, length: requestBytes.length, payloadSha256: null,
        refersTo: null, concurrentTo: responseRecordId,
      },
    ];
    index.insert(rows);
    return { responseRecordId, requestRecordId, responseType: original ? 'revisit' : 'response', payloadSha256, file: target.file };
  }

  return {
    archiveDir,
    sealed,
    writeExchange(exchange) {
      if (closed) return Promise.reject(new Error(`archive writer for ${archiveDir} is closed`));
      const result = queue.then(() => write(exchange));
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      if (closed) return;
      closed = true;
      await queue;
      await closeCurrent();
      if (ownsIndex) index.close();
    },
  };
}
