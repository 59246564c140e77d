/**
 * Runs the attempts of a link-check run: at most `concurrency` URLs at once, at most `perHost` of them
 * on one host, and each host picked only once its politeness gate would let a request start, so the
 * global slots go to hosts that can use them instead of queueing behind one slow site.
 */
import type { GateTimers } from './host-gate.ts';
import type { LinkVerdict } from './link-check-types.ts';
import { MinHeap } from './min-heap.ts';

/** Options of runLinkChecks. */
export interface RunLinkChecksOptions<R = LinkVerdict> {
  urls: readonly string[];
  concurrency: number;
  perHost: number;
  /** When a request to `host` could next start (the host gate's view). */
  readyAt(host: string): number;
  timers: GateTimers;
  /** Checks one URL; a rejection stops the run (no new URL starts; those in flight finish). */
  check(url: string): Promise<R>;
  /**
   * Called as each URL finishes, in completion order; a throw stops the run like a failed check. `again`
   * puts a finished URL (this one or an earlier one) back at the end of its host's queue, to be checked anew.
   */
  onResult(url: string, result: R, again: (url: string) => void): void;
  /** False holds new URLs of `host` back while another URL is in flight; asked again as each finishes. */
  mayStart?(host: string): boolean;
}

interface HostQueue {
  host: string;
  urls: string[];
  next: number;
  active: number;
  queued: boolean;
}

/** Resolves when every URL has a result; rejects with the first fatal error once nothing is in flight. */
export function runLinkChecks<R = LinkVerdict>(options: RunLinkChecksOptions<R>): Promise<void> {
  const { concurrency, perHost, readyAt, timers } = options;
  const heap = new MinHeap<HostQueue>();
  const queues = new Map<string, HostQueue>();
  for (const url of options.urls) {
    const host = new URL(url).host;
    let queue = queues.get(host);
    if (!queue) {
      queue = { host, urls: [], next: 0, active: 0, queued: false };
      queues.set(host, queue);
    }
    queue.urls.push(url);
  }
  const enqueue = (queue: HostQueue, notBefore: number) => {
    if (queue.queued || queue.next >= queue.urls.length || queue.active >= perHost) return;
    queue.queued = true;
    heap.push(Math.max(notBefore, readyAt(queue.host)), queue);
  };
  for (const queue of queues.values()) enqueue(queue, Number.NEGATIVE_INFINITY);

  return new Promise((resolve, reject) => {
    let active = 0;
    let fatal: { error: unknown } | undefined;
    let timerAt = Number.POSITIVE_INFINITY;
    // Hosts held back by mayStart, until the next URL finishes.
    const parked: HostQueue[] = [];

    const again = (url: string) => {
      const queue = queues.get(new URL(url).host);
      if (queue === undefined) throw new Error(`again: ${url} is not a URL of this run`);
      queue.urls.push(url);
      enqueue(queue, Number.NEGATIVE_INFINITY);
    };

    const finish = (queue: HostQueue, outcome: () => void) => {
      try {
        outcome();
      } catch (error) {
        fatal ??= { error };
      }
      queue.active -= 1;
      active -= 1;
      enqueue(queue, Number.NEGATIVE_INFINITY);
      for (const held of parked.splice(0)) enqueue(held, Number.NEGATIVE_INFINITY);
      pump();
    };

    const start = (queue: HostQueue) => {
      const url = queue.urls[queue.next] as string;
      // Done URLs are dropped as the run goes, so memory holds only what is left to check.
      queue.urls[queue.next] = '';
      queue.next += 1;
      queue.active += 1;
      active += 1;
      options.check(url).then(
        (verdict) => finish(queue, () => options.onResult(url, verdict, again)),
        (error: unknown) => finish(queue, () => { throw error; }),
      );
    };

    const pump = () => {
      while (fatal === undefined && active < concurrency && heap.size > 0) {
        const now = timers.now();
        const key = heap.peekKey() as number;
        if (key > now) {
          if (key < timerAt) {
            timerAt = key;
            timers.setTimeout(() => {
              timerAt = Number.POSITIVE_INFINITY;
              pump();
            }, Math.ceil(key - now));
          }
          break;
        }
        const queue = heap.pop() as HostQueue;
        queue.queued = false;
        // The key may be stale: a redirect or a Retry-After can have pushed the host's next start later.
        if (readyAt(queue.host) > now) {
          enqueue(queue, now);
          continue;
        }
        // Never with nothing in flight: no finish would come to ask again.
        if (active > 0 && options.mayStart?.(queue.host) === false) {
          parked.push(queue);
          continue;
        }
        start(queue);
        enqueue(queue, now);
      }
      if (active > 0) return;
      if (fatal !== undefined) reject(fatal.error);
      else if (heap.size === 0) resolve();
    };

    pump();
  });
}
