/**
 * A pino destination that hands its lines to sonic-boom in batches, joined: once per event-loop turn, or
 * (`hold`) once per short interval or whenever a batch is large. sonic-boom measures the string it is
 * appending to on every write (`Buffer.byteLength` of up to 16 KiB), which flattens and copies it each
 * time: at the gateway's line rate that garbage was the worst of its p99 (issue 6; the rate measured is
 * in BENCHMARKS.md). Each batch also costs a write on the thread pool and a wake-up of the event loop,
 * paid per turn when there is one write per turn: under load a turn answers only a few requests, so
 * holding lines for an interval cuts that cost per line several times (issue 15). Batching keeps
 * sonic-boom's EAGAIN retries, backlog bound and exit flush.
 */
import type { DestinationStream } from 'pino';

/** What the batcher writes into: a sonic-boom stream, or anything with the same two methods. */
export interface LineSink {
  write(chunk: string): unknown;
  flushSync(): void;
}

/** A destination for pino; `flushSync` pushes the gathered lines through before exit. */
export interface TurnBatchedStream extends DestinationStream {
  write(line: string): void;
  flushSync(): void;
  /** Where the lines go. */
  readonly sink: LineSink;
}

/** Holding lines for an interval instead of one turn. */
export interface BatchHold {
  /** The longest a line waits, in milliseconds. */
  ms: number;
  /** A batch this long (in UTF-16 units, about bytes for log lines) is written at once. */
  maxChars: number;
}

/**
 * Wraps `sink`; lines written in one turn (or within `hold.ms`, up to `hold.maxChars`) reach it in one
 * write, in order.
 */
export function createTurnBatchedStream(sink: LineSink, hold?: BatchHold): TurnBatchedStream {
  let lines: string[] = [];
  let chars = 0;
  let timer: NodeJS.Timeout | undefined;
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (lines.length === 0) return;
    const chunk = lines.join('');
    lines = [];
    chars = 0;
    sink.write(chunk);
  };
  return {
    sink,
    write(line) {
      lines.push(line);
      if (hold === undefined) {
        if (!scheduled) {
          scheduled = true;
          setImmediate(drain);
        }
        return;
      }
      chars += line.length;
      if (chars >= hold.maxChars) drain();
      // Unreferenced: a pending batch never keeps the process alive; exit flushes it (gateway-logger.ts).
      else if (timer === undefined) timer = setTimeout(drain, hold.ms).unref();
    },
    flushSync() {
      drain();
      sink.flushSync();
    },
  };
}
