/**
 * The compressed forms of response bodies, made once per body and revision, never per request, with
 * zlib's asynchronous API (libuv's thread pool, off the event loop). The bodies a shared cache may store
 * (`precompute`) are compressed ahead of use: `prepare` makes their forms for a snapshot before it is
 * served (at start and before each swap), so the first client asking for br gets br. Any other body is
 * compressed the first time a client asks for it in a coding, and sent as it is until that finishes. The
 * forms are the served snapshot's state: a swap (or `drop`, when the served file stops verifying) drops
 * them all, and a reply pinned to any snapshot but the served one is sent uncompressed rather than cached
 * under it. Compressed bytes depend on the zlib and brotli versions, so they are never bound by the
 * revision or written to the snapshot: they are derived from its bytes in memory.
 *
 * Bodies are found by identity: a Buffer through a WeakMap (its caches keep it, this store never does, so a
 * body evicted from its cache takes its lookup with it), a string by value. The compressed bytes sit in one
 * LRU bounded by bytes (a share of `--cache-mb`, gateway/programs/cache-budget.ts).
 */
import { LRUCache } from 'lru-cache';
import { compressBody } from './compress-body.ts';
import { ENTRY_OVERHEAD_BYTES } from '../programs/cache-budget.ts';
import type { Snapshot } from '../snapshot/open-snapshot.ts';
import { CONTENT_CODINGS, type ContentCoding } from './negotiate-encoding.ts';

/** Bodies shorter than this are always sent as they are: the coding's framing would outweigh the saving. */
export const MIN_COMPRESSED_BODY_BYTES = 1024;

/**
 * Compressions running at once, at most: libuv's pool has four threads, and a stream of bodies asked for
 * once each (filtered-cache misses) must not queue jobs, and their bodies, without bound. Past it a body is
 * sent as it is and compressed when asked for again.
 */
export const MAX_COMPRESSIONS_IN_FLIGHT = 8;

/** Compressions a `prepare` runs at once: half of libuv's pool, so requests' own compressions still find threads. */
export const PREPARE_CONCURRENCY = 2;

/** What one `prepare` did, for the log line and the bench. */
export interface PrepareReport {
  /** Forms made (bodies times codings), and forms taken from the served snapshot's (the same body object). */
  readonly compressed: number;
  readonly reused: number;
  /** Forms left out because holding them would have passed the budget (they are made on demand instead). */
  readonly skipped: number;
  readonly identityBytes: number;
  /** Bytes the prepared forms hold, entry overhead included. */
  readonly heldBytes: number;
  /** Wall time from the first compression to the last, and the process's CPU time meanwhile (all threads). */
  readonly ms: number;
  readonly cpuMs: number;
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
  /**
   * Sets where the bodies to compress ahead of use come from (the app's shared-cacheable routes); with
   * `snapshotIndependentOnly`, only those that read nothing from the snapshot (the app's own documents).
   */
  precompute(bodiesOf: (snapshot: Snapshot, snapshotIndependentOnly: boolean) => Iterable<Buffer | string>): void;
  /**
   * Compresses `snapshot`'s precomputed bodies in every coding before it is served, within the budget; its
   * forms are served once the snapshot is. A form held for the same body by the served snapshot, or by an
   * earlier prepare of this snapshot, is taken over. `snapshotIndependentOnly`: only the bodies that read
   * nothing from the snapshot, so this may run before its file is verified (start-up, during the hash).
   */
  prepare(snapshot: Snapshot, options?: { snapshotIndependentOnly?: boolean }): Promise<PrepareReport>;
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
  // The forms `prepare` makes for a snapshot not served yet; they become `served` when it is.
  let prepared: SnapshotForms | undefined;
  let bodiesOf: (snapshot: Snapshot, snapshotIndependentOnly: boolean) => Iterable<Buffer | string> = () => [];
  const inFlight = new Set<Promise<void>>();
  const preparing = new Set<Promise<unknown>>();

  const formsOf = (snapshot: Snapshot): SnapshotForms => {
    if (served?.snapshot === snapshot) return served;
    // A new snapshot is served: the previous one's forms go with it.
    served?.lru.clear();
    if (prepared?.snapshot === snapshot) {
      served = prepared;
      prepared = undefined;
      return served;
    }
    served = newForms(snapshot);
    return served;
  };

  const newForms = (snapshot: Snapshot): SnapshotForms => {
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
    return { snapshot, byBuffer, byText, lru };
  };

  // While a snapshot is prepared, its forms and the served ones share the budget: the served ones, which a
  // swap drops soon, give way, least recently used first (a form both hold counts twice, erring low).
  const makeRoom = () => {
    if (served === undefined || prepared === undefined) return;
    while (served.lru.size > 0 && served.lru.calculatedSize + prepared.lru.calculatedSize > options.maxBytes) served.lru.pop();
  };

  const entryOf = (forms: SnapshotForms, body: Buffer | string): Entry | undefined => (typeof body === 'string' ? forms.byText.get(body) : forms.byBuffer.get(body));

  const addEntry = (forms: SnapshotForms, body: Buffer | string): Entry => {
    const entry: Entry = { source: typeof body === 'string' ? body : new WeakRef(body), forms: {}, pending: new Set() };
    if (typeof body === 'string') forms.byText.set(body, entry);
    else forms.byBuffer.set(body, entry);
    forms.lru.set(entry, entrySize(entry));
    return entry;
  };

  /** Compresses `body` in `coding` for `entry`, marked pending until `keep` takes the outcome. */
  const compress = (entry: Entry, body: Buffer | string, coding: ContentCoding): Promise<Buffer | { error: unknown }> => {
    entry.pending.add(coding);
    return compressBody(typeof body === 'string' ? Buffer.from(body) : body, coding).then((compressed) => compressed, (error: unknown) => ({ error }));
  };

  /** Keeps a compression's outcome in `entry`; `fits` says whether the form may be kept (prepare's budget). */
  const keep = (forms: SnapshotForms, entry: Entry, body: Buffer | string, coding: ContentCoding, outcome: Buffer | { error: unknown }, fits: (entry: Entry) => boolean = () => true): boolean => {
    entry.pending.delete(coding);
    if (!Buffer.isBuffer(outcome)) {
      entry.forms[coding] = null;
      options.onError?.(outcome.error);
      return false;
    }
    // Kept only while its snapshot is served (or being prepared) and its entry was not evicted meanwhile;
    // a form that saves nothing is not kept (the body goes as it is, and no second try is made while the entry lives).
    if ((served !== forms && prepared !== forms) || !forms.lru.has(entry)) return false;
    const form = outcome.length < Buffer.byteLength(body) ? outcome : null;
    if (form !== null && !fits({ ...entry, forms: { ...entry.forms, [coding]: form } })) return false;
    entry.forms[coding] = form;
    // Set again, so the LRU counts the new bytes (and evicts others to make room).
    forms.lru.set(entry, entrySize(entry));
    makeRoom();
    return true;
  };

  const compressInto = (forms: SnapshotForms, entry: Entry, body: Buffer | string, coding: ContentCoding): Promise<boolean> =>
    compress(entry, body, coding).then((outcome) => keep(forms, entry, body, coding, outcome));

  const start = (forms: SnapshotForms, entry: Entry, body: Buffer | string, coding: ContentCoding) => {
    const tracked: Promise<void> = compressInto(forms, entry, body, coding).then(() => undefined).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  const prepareForms = async (snapshot: Snapshot, snapshotIndependentOnly: boolean): Promise<PrepareReport> => {
    const startedAt = performance.now();
    const cpu = process.cpuUsage();
    // The served snapshot's own prepared forms are taken up first (no request may have come yet), so that
    // the forms of bodies it shares with `snapshot` are taken over rather than made again.
    const current = options.servedSnapshot();
    if (prepared?.snapshot === current && current !== snapshot) formsOf(current);
    // What may be taken over: the served forms, and those of an earlier prepare of this snapshot, which
    // this one replaces (as it replaces a prepare of another snapshot, whose forms are then dropped).
    const earlier = prepared?.snapshot === snapshot ? prepared : undefined;
    const forms = newForms(snapshot);
    prepared = forms;
    const jobs: { body: Buffer | string; entry: Entry; coding: ContentCoding }[] = [];
    let reused = 0;
    let identityBytes = 0;
    for (const body of bodiesOf(snapshot, snapshotIndependentOnly)) {
      const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
      if (length < MIN_COMPRESSED_BODY_BYTES || entryOf(forms, body) !== undefined) continue;
      identityBytes += length;
      const entry = addEntry(forms, body);
      const held = [served, earlier].map((source) => (source === undefined ? undefined : entryOf(source, body)));
      for (const coding of CONTENT_CODINGS) {
        const form = held[0]?.forms[coding] ?? held[1]?.forms[coding];
        if (form !== undefined) {
          entry.forms[coding] = form;
          reused++;
        } else {
          jobs.push({ body, entry, coding });
        }
      }
      forms.lru.set(entry, entrySize(entry));
    }
    makeRoom();
    let compressed = 0;
    let skipped = 0;
    // A form is kept only while all the prepared forms fit the budget: one never evicts another.
    const fits = (entry: Entry) => forms.lru.calculatedSize - (forms.lru.peek(entry) ?? 0) + entrySize(entry) <= options.maxBytes;
    // PREPARE_CONCURRENCY compressions run at once, but their forms are kept in the order of the jobs, so which
    // bodies fit the budget never depends on which compression ends first.
    let running = 0;
    const waiting: Array<() => void> = [];
    const limited = <T>(task: () => Promise<T>): Promise<T> => new Promise<T>((resolve) => {
      const go = () => {
        running++;
        void task().then(resolve).finally(() => {
          running--;
          waiting.shift()?.();
        });
      };
      if (running < PREPARE_CONCURRENCY) go();
      else waiting.push(go);
    });
    const outcomes = jobs.map((job) => limited(() => (prepared === forms ? compress(job.entry, job.body, job.coding) : Promise.resolve(undefined))));
    let left = jobs.length;
    for (const [index, job] of jobs.entries()) {
      const outcome = await outcomes[index];
      if (outcome === undefined) break;
      left--;
      if (keep(forms, job.entry, job.body, job.coding, outcome, fits)) compressed++;
      else skipped++;
    }
    // A prepare replaced midway: its remaining jobs were never compressed, and no form stays pending.
    for (const job of jobs.slice(jobs.length - left)) job.entry.pending.delete(job.coding);
    // The served snapshot itself prepared (at start, before anything listens): its forms are served now.
    if (prepared === forms && snapshot === options.servedSnapshot()) {
      if (served !== forms) served?.lru.clear();
      served = forms;
      prepared = undefined;
    }
    const used = process.cpuUsage(cpu);
    return { compressed, reused, skipped: skipped + left, identityBytes, heldBytes: forms.lru.calculatedSize, ms: performance.now() - startedAt, cpuMs: (used.user + used.system) / 1000 };
  };

  return {
    lookup(snapshot, body, coding) {
      // In bytes, as encodeReply decides Vary: a string of fewer characters may still be 1 KiB of UTF-8.
      if ((typeof body === 'string' ? Buffer.byteLength(body) : body.length) < MIN_COMPRESSED_BODY_BYTES) return undefined;
      if (snapshot !== options.servedSnapshot()) return undefined;
      const forms = formsOf(snapshot);
      let entry = entryOf(forms, body);
      if (entry === undefined) entry = addEntry(forms, body);
      else forms.lru.get(entry);
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
      const current = options.servedSnapshot();
      if (served?.snapshot !== current && prepared?.snapshot === current) formsOf(current);
      if (served !== undefined && served.snapshot !== current) this.drop();
      return (served?.lru.calculatedSize ?? 0) + (prepared?.lru.calculatedSize ?? 0);
    },
    async settled() {
      while (inFlight.size > 0 || preparing.size > 0) await Promise.allSettled([...inFlight, ...preparing]);
    },
    precompute(source) {
      bodiesOf = source;
    },
    prepare(snapshot, prepareOptions = {}) {
      const job = prepareForms(snapshot, prepareOptions.snapshotIndependentOnly === true);
      const tracked = job.finally(() => preparing.delete(tracked));
      preparing.add(tracked);
      return job;
    },
  };
}
