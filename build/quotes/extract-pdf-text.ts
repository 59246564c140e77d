/**
 * Reads PDFs' text layers on worker threads, each PDF under a time limit and a heap cap. A worker is kept
 * for the next PDF while it behaves; one that runs out of time or memory is terminated (pdf.js cannot be
 * interrupted otherwise) and a fresh one is started for the next PDF.
 *
 * The worker file is `pdf-text-worker.ts` under tsx and `pdf-text-worker.js` once compiled: its name comes
 * from this module's own extension. On Node 20 a worker does not inherit the loader hooks `--import tsx`
 * registered, so under tsx the bootstrap registers them before importing the file.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PdfWorkerAnswer } from './pdf-worker-protocol.ts';

export type { PdfWorkerAnswer as PdfTextResult } from './pdf-worker-protocol.ts';

/** Limits for PDF text extraction. */
export interface PdfTextExtractorOptions {
  /** PDFs read at once, each on its own worker thread (default 1). */
  workers?: number;
  /** Longest one PDF may take, worker start included (default DEFAULT_PDF_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Old-generation heap cap of each worker, in MiB (default DEFAULT_PDF_MAX_HEAP_MB). */
  maxHeapMb?: number;
}

/** Reads PDF text layers until closed. */
export interface PdfTextExtractor {
  /** The text of each page of the PDF `bytes` (copied, so the caller keeps its array), or why there is none. */
  extract(bytes: Uint8Array): Promise<PdfWorkerAnswer>;
  /** Terminates the workers; PDFs still waiting or in progress answer `pdf extraction stopped`. */
  close(): Promise<void>;
}

/** 20 s: a text-layer read of a large city guideline PDF takes well under one on an idle core (BENCHMARKS.md). */
export const DEFAULT_PDF_TIMEOUT_MS = 20_000;
/** 256 MiB: pdf.js keeps a parsed document in a small multiple of its size, and PDFs are capped at 20 MiB. */
export const DEFAULT_PDF_MAX_HEAP_MB = 256;

const WORKER_ENTRY = new URL(`./pdf-text-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url).href;
const TSX_API = WORKER_ENTRY.endsWith('.ts') ? import.meta.resolve('tsx/esm/api') : undefined;
// pdf.js's two files (about 3 MB of JavaScript) are loaded before tsx's hooks exist: through them a worker
// took seconds more to start. The worker module's own import of them then finds them in the module cache.
const PDFJS_FILES = [import.meta.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'), import.meta.resolve('pdfjs-dist/legacy/build/pdf.mjs')];
// Loads the worker module; a module that fails to load surfaces as the worker's 'error' event.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(async () => {
  for (const file of workerData.preload) await import(file);
  if (workerData.tsxApi !== undefined) (await import(workerData.tsxApi)).register();
  await import(workerData.entry);
})().catch((error) => { setImmediate(() => { throw error; }); });
`;

interface Job {
  bytes: Uint8Array;
  resolve: (answer: PdfWorkerAnswer) => void;
}

interface Lane {
  worker: Worker;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** Starts an extractor; workers start on demand, so an extractor that reads no PDF costs nothing. */
export function createPdfTextExtractor(options: PdfTextExtractorOptions = {}): PdfTextExtractor {
  const size = options.workers ?? 1;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PDF_TIMEOUT_MS;
  const maxHeapMb = options.maxHeapMb ?? DEFAULT_PDF_MAX_HEAP_MB;
  if (!Number.isInteger(size) || size < 1) throw new Error(`pdf workers must be a whole number of at least 1, got ${size}`);
  if (!(timeoutMs > 0)) throw new Error(`pdf timeout must be a positive number of milliseconds, got ${timeoutMs}`);
  if (!(maxHeapMb >= 16)) throw new Error(`pdf heap cap must be at least 16 MiB, got ${maxHeapMb}`);
  const lanes = new Set<Lane>();
  const waiting: Job[] = [];
  let closed = false;

  function finish(lane: Lane, answer: PdfWorkerAnswer, retire: boolean): void {
    const job = lane.job;
    if (job === undefined) return;
    clearTimeout(lane.timer);
    lane.job = undefined;
    lane.timer = undefined;
    if (retire) {
      lanes.delete(lane);
      void lane.worker.terminate();
    } else {
      // An idle worker must not keep the process alive.
      lane.worker.unref();
    }
    job.resolve(answer);
    pump();
  }

  function startLane(): Lane {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { entry: WORKER_ENTRY, tsxApi: TSX_API, preload: PDFJS_FILES },
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
      stdout: false,
      stderr: false,
    });
    const lane: Lane = { worker, job: undefined, timer: undefined };
    worker.on('message', (answer: PdfWorkerAnswer) => finish(lane, answer, false));
    worker.on('error', (error: Error & { code?: string }) => {
      const reason = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `pdf extraction ran out of memory (${maxHeapMb} MiB cap)` : `pdf extraction failed (${error.message})`.toLowerCase();
      finish(lane, { ok: false, reason }, true);
    });
    worker.on('exit', () => {
      lanes.delete(lane);
      finish(lane, { ok: false, reason: 'pdf extraction worker exited' }, true);
    });
    lanes.add(lane);
    return lane;
  }

  function pump(): void {
    while (!closed && waiting.length > 0) {
      let lane: Lane | undefined;
      for (const candidate of lanes) if (candidate.job === undefined) lane = candidate;
      if (lane === undefined && lanes.size < size) lane = startLane();
      if (lane === undefined) return;
      const job = waiting.shift()!;
      lane.job = job;
      lane.worker.ref();
      // A copy, transferred: the caller's array stays usable and nothing is copied twice. Uint8Array's own
      // slice, never Buffer's: Buffer#slice is a view, and a small Buffer's view sits on Node's shared 8 KiB
      // pool, whose whole ArrayBuffer would be sent (and detached) instead of the PDF's bytes.
      const copy = Uint8Array.prototype.slice.call(job.bytes);
      lane.worker.postMessage({ bytes: copy.buffer }, [copy.buffer]);
      const busy = lane;
      busy.timer = setTimeout(() => finish(busy, { ok: false, reason: `pdf extraction timed out after ${timeoutMs} ms` }, true), timeoutMs);
    }
  }

  return {
    extract(bytes) {
      if (closed) return Promise.resolve({ ok: false, reason: 'pdf extraction stopped' });
      return new Promise((resolve) => {
        waiting.push({ bytes, resolve });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.resolve({ ok: false, reason: 'pdf extraction stopped' });
      const stopping = [...lanes].map((lane) => {
        finish(lane, { ok: false, reason: 'pdf extraction stopped' }, true);
        return lane.worker.terminate();
      });
      lanes.clear();
      await Promise.all(stopping);
    },
  };
}
