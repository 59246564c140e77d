/**
 * SHA-256 of an open file, computed on a worker thread so that checking a multi-gigabyte snapshot during
 * a hot swap never stalls the requests the event loop is serving meanwhile. Small files are hashed in
 * place: below a few megabytes the hash costs less than starting a worker (figures in BENCHMARKS.md).
 */
import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** Files up to this size are hashed on the calling thread, where hashing them is cheaper than a worker's start. */
export const INLINE_HASH_BYTES = 8 * 1024 * 1024;

// Plain CommonJS evaluated in the worker: it needs no TypeScript loader, so the worker starts in
// milliseconds (execArgv is emptied below). Two buffers: the next chunk is read on libuv's thread pool
// while this one is hashed, which overlaps the disk with the hash (measured: BENCHMARKS.md).
// Positional reads leave the shared descriptor's offset alone.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { read } = require('node:fs');
const CHUNK = 4 * 1024 * 1024;
const readAt = (buffer, position, length) => new Promise((resolve, reject) => {
  read(workerData.fd, buffer, 0, length, position, (error, bytes) => (error ? reject(error) : resolve(bytes)));
});
(async () => {
  const digests = [];
  const buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
  for (const [start, end] of workerData.ranges) {
    const hash = createHash('sha256');
    let position = start;
    let current = 0;
    let pending = readAt(buffers[0], position, Math.min(CHUNK, end - position));
    for (;;) {
      const bytes = await pending;
      if (bytes === 0) break;
      position += bytes;
      if (position < end) pending = readAt(buffers[1 - current], position, Math.min(CHUNK, end - position));
      else pending = Promise.resolve(0);
      hash.update(buffers[current].subarray(0, bytes));
      current = 1 - current;
    }
    digests.push(hash.digest('hex'));
  }
  parentPort.postMessage(digests);
})(); // a rejection surfaces as the worker's 'error' event
`;

/** Thrown when a hash was abandoned through its AbortSignal (the gateway is shutting down). */
export class HashAbortedError extends Error {
  override readonly name = 'HashAbortedError';
}

/**
 * Resolves to the lowercase hex SHA-256 of every byte of `fd` from offset 0 (`size` bytes, its fstat size,
 * chooses where to hash). The caller keeps `fd` open until the promise settles; aborting terminates the
 * worker and rejects with HashAbortedError.
 */
export async function sha256OfDescriptor(fd: number, size: number, signal?: AbortSignal): Promise<string> {
  if (signal?.aborted) throw new HashAbortedError('hash aborted before it started');
  if (size <= INLINE_HASH_BYTES) return hashInPlace(fd);
  const [digest] = await hashRangesOnWorker(fd, [[0, Number.MAX_SAFE_INTEGER]], signal);
  if (digest === undefined) throw new Error('hash worker answered no digest');
  return digest;
}

/**
 * Resolves to the SHA-256 of each byte range [start, end) of `fd`, in order, hashed on up to `workers`
 * worker threads at once (contiguous runs of ranges per worker). Same contract as sha256OfDescriptor.
 */
export async function sha256OfRanges(fd: number, ranges: readonly (readonly [number, number])[], workers: number, signal?: AbortSignal): Promise<string[]> {
  if (signal?.aborted) throw new HashAbortedError('hash aborted before it started');
  const count = Math.max(1, Math.min(workers, ranges.length));
  const runs: (readonly [number, number])[][] = [];
  for (let index = 0; index < count; index++) runs.push(ranges.slice(Math.floor((index * ranges.length) / count), Math.floor(((index + 1) * ranges.length) / count)));
  // allSettled: every worker is gone before this settles, so the caller may close `fd` right after.
  const outcomes = await Promise.allSettled(runs.map((run) => hashRangesOnWorker(fd, run, signal)));
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return outcomes.flatMap((outcome) => (outcome as PromiseFulfilledResult<string[]>).value);
}

function hashRangesOnWorker(fd: number, ranges: readonly (readonly [number, number])[], signal?: AbortSignal): Promise<string[]> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new HashAbortedError('hash aborted before it started'));
      return;
    }
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { fd, ranges }, execArgv: [] });
    let digest: string[] | undefined;
    let failure: unknown;
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      void worker.terminate();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (hexes: string[]) => (digest = hexes));
    worker.once('error', (error) => (failure = error));
    // Settled only once the worker is gone: the caller closes `fd` next, and no read of it may still be pending.
    worker.once('exit', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (aborted) reject(new HashAbortedError('hash aborted'));
      else if (digest !== undefined) resolve(digest);
      else reject(failure ?? new Error(`hash worker exited with code ${code} before answering`));
    });
  });
}

function hashInPlace(fd: number): string {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  for (let position = 0, read = readSync(fd, buffer, 0, buffer.length, 0); read > 0; read = readSync(fd, buffer, 0, buffer.length, position)) {
    hash.update(buffer.subarray(0, read));
    position += read;
  }
  return hash.digest('hex');
}
