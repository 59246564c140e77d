/**
 * The compressed forms of response bodies, made once per body and revision, never per request. A body is
 * compressed the first time a client asks for it in a coding, with zlib's asynchronous API (libuv's thread
 * pool, off the event loop); until that finishes the body is sent as it is. The forms are the served
 * snapshot's state: a swap (or `drop`, when the served file stops verifying) drops them all, and a reply
 * pinned to any snapshot but the served one is sent uncompressed rather than cached under it. Compressed
 * bytes depend on the zlib and brotli versions, so they are never bound by the revision or written to the
 * snapshot: they are derived from its bytes in memory.
 *
 * Bodies are found by identity: a Buffer through a WeakMap (its caches keep it, this store never does, so a
 * body evicted from its cache takes its lookup with it), a string by value. The compressed bytes sit in one
 * LRU bounded by bytes (a share of `--cache-mb`, gateway/programs/cache-budget.ts).
 */
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { LRUCache } from 'lru-cache';
import { ENTRY_OVERHEAD_BYTES } from '../programs/cache-budget.ts';
import type { Snapshot } from '../snapshot/open-snapshot.ts';
import type { ContentCoding } from './negotiate-encoding.ts';

/** Bodies shorter than this are always sent as they are: the coding's framing would outweigh the saving. */
export const MIN_COMPRESSED_BODY_BYTES = 1024;

/**
 * Levels, chosen by measured cost (BENCHMARKS.md, "Compression"): brotli quality 5 compresses a 111 KB
 * collection in a few milliseconds to within a few percent of quality 11, which costs two orders more;
 * gzip 6 is zlib's default and within a percent of 9.
 */
export const COMPRESSION_LEVELS = { brotliQuality: 5, gzipLevel: 6 } as const;

/**
 * Compressions running at once, at most: libuv's pool has four threads, and a stream of bodies asked for
 * once each (filtered-cache misses) must not queue jobs, and their bodies, without bound. Past it a body is
 * sent as it is and compressed when asked for again.
 */
export const MAX_COMPRESSIONS_IN_FLIGHT = 8;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The smallest brotli window (log2 bytes, 10 to 24) that holds `length` bytes. */
export function brotliWindowBits(length: number): number {
  return Math.min(constants.BROTLI_MAX_WINDOW_BITS, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(Math.max(1, length)))));
}

/** Compresses `body` in `coding` off the event loop. */
export function compressBody(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body, { level: COMPRESSION_LEVELS.gzipLevel });
  return brotliAsync(body, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: COMPRESSION_LEVELS.brotliQuality,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      // A window no larger than the body: brotli's default (4 MiB) makes each encoder allocate megabytes,
      // which the thread pool's malloc arenas keep after the job (the gateway's RSS grew by ~70 MB filling
      // a 7 MB store at the published scale, BENCHMARKS.md "Compression").
      [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.length),
    },
  });
}

/** What EncodedBodies needs. */
export interface EncodedBodiesOptions {
  /** The snapshot being served now; only its replies are compressed and remembered. */
  servedSnapshot: () => Snapshot;
  /** Bytes the compressed forms may hold together. */
  maxBytes: number;
  /** Where a compression failure is reported (the body is then sent as it is). */
  onError?: (error: unknown) => void;
}

/** The compressed forms of the served snapshot's bodies. */
export interface EncodedBodies {
  /**
   * The body's stored form in `coding`, or undefined: then it is sent as it is, and (when it is the served
   * snapshot's and long enough) compressed in the background for the requests after it.
   */
  lookup(snapshot: Snapshot, body: Buffer | string, coding: ContentCoding): Buffer | undefined;
  /** Forgets every compressed form (a swap does it on its own; a file that fails verification calls it). */
  drop(): void;
  /** Compressed bytes held now (what counts against the budget, entry overhead included). */
  heldBytes(): number;
  /** Resolves once every compression started so far has finished (tests and the bench wait on it). */
  settled(): Promise<void>;
}

/** One body's forms (null: compressing saved nothing, or failed). `source` finds its lookup again when the LRU evicts it. */
interface Entry {
  readonly source: WeakRef<Buffer> | string;
  readonly forms: Partial<Record<ContentCoding, Buffer | null>>;
  readonly pending: Set<ContentCoding>;
}

/** One snapshot's forms: dropping this object drops them all. */
interface SnapshotForms {
  readonly snapshot: Snapshot;
  readonly byBuffer: WeakMap<Buffer, Entry>;
  readonly byText: Map<string, Entry>;
  /** Entries by their size when last set: lru-cache recounts an entry only when its value changes. */
  readonly lru: LRUCache<Entry, number>;
}

const entrySize = (entry: Entry) => ENTRY_OVERHEAD_BYTES + (typeof entry.source === 'string' ? entry.source.length : 0) + (entry.forms.br?.length ?? 0) + (entry.forms.gzip?.length ?? 0);

/** Creates the compressed-body store of one gateway process (both adapters share it). */
export function createEncodedBodies(options: EncodedBodiesOptions): EncodedBodies {
  let served: SnapshotForms | undefined;
  const inFlight = new Set<Promise<void>>();

  const formsOf = (snapshot: Snapshot): SnapshotForms => {
    if (served?.snapshot === snapshot) return served;
    // A new snapshot is served: the previous one's forms go with it.
    served?.lru.clear();
    const byBuffer = new WeakMap<Buffer, Entry>();
    const byText = new Map<string, Entry>();
    const lru = new LRUCache<Entry, number>({
      maxSize: options.maxBytes,
      sizeCalculation: (size) => size,
      dispose: (_size, entry, reason) => {
        // 'set' is the entry recounted with its new form, not removed.
        if (reason === 'set') return;
        if (typeof entry.source === 'string') byText.delete(entry.source);
        else {
          const body = entry.source.deref();
          if (body !== undefined) byBuffer.delete(body);
        }
      },
    });
    served = { snapshot, byBuffer, byText, lru };
    return served;
  };

  const start = (forms: SnapshotForms, entry: Entry, body: Buffer | string, coding: ContentCoding) => {
    entry.pending.add(coding);
    const job = compressBody(typeof body === 'string' ? Buffer.from(body) : body, coding).then(
      (compressed) => {
        entry.pending.delete(coding);
        // Kept only while its snapshot is served and its entry was not evicted meanwhile; a form that saves
        // nothing is not kept (the body goes as it is, and no second try is made while the entry lives).
        if (served !== forms || !forms.lru.has(entry)) return;
        entry.forms[coding] = compressed.length < Buffer.byteLength(body) ? compressed : null;
        // Set again, so the LRU counts the new bytes (and evicts others to make room).
        forms.lru.set(entry, entrySize(entry));
      },
      (error: unknown) => {
        entry.pending.delete(coding);
        entry.forms[coding] = null;
        options.onError?.(error);
      },
    );
    const tracked: Promise<void> = job.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  return {
    lookup(snapshot, body, coding) {
      // In bytes, as encodeReply decides Vary: a string of fewer characters may still be 1 KiB of UTF-8.
      if ((typeof body === 'string' ? Buffer.byteLength(body) : body.length) < MIN_COMPRESSED_BODY_BYTES) return undefined;
      if (snapshot !== options.servedSnapshot()) return undefined;
      const forms = formsOf(snapshot);
      let entry = typeof body === 'string' ? forms.byText.get(body) : forms.byBuffer.get(body);
      if (entry === undefined) {
        entry = { source: typeof body === 'string' ? body : new WeakRef(body), forms: {}, pending: new Set() };
        if (typeof body === 'string') forms.byText.set(body, entry);
        else forms.byBuffer.set(body, entry);
        forms.lru.set(entry, entrySize(entry));
      } else {
        forms.lru.get(entry);
      }
      const form = entry.forms[coding];
      if (form === undefined && !entry.pending.has(coding) && inFlight.size < MAX_COMPRESSIONS_IN_FLIGHT) start(forms, entry, body, coding);
      return form ?? undefined;
    },
    drop() {
      served?.lru.clear();
      served = undefined;
    },
    heldBytes() {
      // A swap drops the previous snapshot's forms whether or not a request has come since.
      if (served !== undefined && served.snapshot !== options.servedSnapshot()) this.drop();
      return served?.lru.calculatedSize ?? 0;
    },
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
