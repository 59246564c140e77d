/**
 * A pino destination that hands its lines to sonic-boom once per event-loop turn, joined. sonic-boom
 * measures the string it is appending to on every write (`Buffer.byteLength` of up to 16 KiB), which
 * flattens and copies it each time: at the gateway's line rate that garbage was the worst of its p99
 * (issue 6; the rate measured is in BENCHMARKS.md). One write per turn keeps sonic-boom's batching, EAGAIN retries, backlog bound
 * and exit flush, without the per-line copy.
 */
import type { DestinationStream } from 'pino';

/** What the batcher writes into: a sonic-boom stream, or anything with the same two methods. */
export interface LineSink {
  write(chunk: string): unknown;
  flushSync(): void;
}

/** A destination for pino; `flushSync` pushes the current turn's lines through before exit. */
export interface TurnBatchedStream extends DestinationStream {
  write(line: string): void;
  flushSync(): void;
  /** Where the lines go. */
  readonly sink: LineSink;
}

/** Wraps `sink`; lines written in one turn reach it in one write, in order, before the next turn. */
export function createTurnBatchedStream(sink: LineSink): TurnBatchedStream {
  let lines: string[] = [];
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    if (lines.length === 0) return;
    const chunk = lines.join('');
    lines = [];
    sink.write(chunk);
  };
  return {
    sink,
    write(line) {
      lines.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    },
    flushSync() {
      drain();
      sink.flushSync();
    },
  };
}
