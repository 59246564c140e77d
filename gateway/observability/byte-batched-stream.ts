/**
 * The gateway's stderr destination: lines gathered as UTF-8 bytes in one buffer and handed to sonic-boom
 * (in its `buffer` content mode) a batch at a time, once per short interval or whenever a batch is large,
 * as the string batcher it replaced did (turn-batched-stream.ts, removed). With strings, every line was concatenated from pieces,
 * then joined into the batch (a flattening copy), measured again by sonic-boom, converted to bytes by
 * `fs.write` and converted once more by sonic-boom after the write (BENCHMARKS.md, issue 25, third
 * round); here a line is encoded once, straight into the batch. The request line writes its bytes in place
 * (request-log-line.ts: `room` and `commit`); pino's other lines are encoded on `write`. sonic-boom keeps
 * its EAGAIN retries, its backlog bound (counted in bytes) and the exit flush.
 */
import type { DestinationStream } from 'pino';

/** What the batcher writes into: a sonic-boom stream in `buffer` content mode, or anything with the same two methods. */
export interface ByteSink {
  /** Takes the chunk as it is: the batcher never writes into a chunk it has handed over. */
  write(chunk: Buffer): unknown;
  flushSync(): void;
}

/** How long lines are held, and how many bytes make a batch that is written at once. */
export interface ByteHold {
  ms: number;
  maxBytes: number;
}

/** A destination for pino that also lets a writer put a line's bytes straight into the batch. */
export interface ByteBatchedStream extends DestinationStream {
  /** A line as pino writes one: encoded into the batch. */
  write(line: string): void;
  /**
   * The batch's buffer with at least `bytes` free from `at`: write the line there, then `commit` its end.
   * Nothing else may write in between.
   */
  room(bytes: number): Buffer;
  /** Where the next line starts in the buffer `room` returned. */
  readonly at: number;
  /** Ends the line written into `room`'s buffer at `end`. */
  commit(end: number): void;
  /** Writes the gathered lines through, synchronously (at exit). */
  flushSync(): void;
  readonly sink: ByteSink;
}

/** Wraps `sink`; lines reach it in order, held up to `hold.ms` or until `hold.maxBytes` have gathered. */
export function createByteBatchedStream(sink: ByteSink, hold: ByteHold): ByteBatchedStream {
  // A batch never outgrows its buffer: a line that would not fit closes the batch first.
  let buffer = Buffer.allocUnsafeSlow(hold.maxBytes);
  let at = 0;
  let timer: NodeJS.Timeout | undefined;
  const drain = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (at === 0) return;
    // sonic-boom holds a chunk until its write completes (longer under backlog) and counts only the chunk's
    // length against its backlog bound: the batcher never writes into a chunk it has handed over
    // (test/gateway/observability/byte-batched-stream.test.ts). A small batch (a quiet gateway's, handed
    // over by the timer) is copied out at its own size and the buffer kept, since a stalled stderr would
    // otherwise hold a whole buffer behind every few hundred counted bytes; a large one is handed over as it
    // is and the next batch gets a new buffer.
    let chunk: Buffer;
    if (at * 2 <= buffer.length) {
      chunk = Buffer.allocUnsafeSlow(at);
      buffer.copy(chunk, 0, 0, at);
      if (buffer.length !== hold.maxBytes) buffer = Buffer.allocUnsafeSlow(hold.maxBytes);
    } else {
      chunk = buffer.subarray(0, at);
      buffer = Buffer.allocUnsafeSlow(hold.maxBytes);
    }
    at = 0;
    sink.write(chunk);
  };
  const room = (bytes: number): Buffer => {
    if (at + bytes > buffer.length) {
      drain();
      if (bytes > buffer.length) buffer = Buffer.allocUnsafeSlow(bytes);
    }
    return buffer;
  };
  const commit = (end: number) => {
    at = end;
    if (at >= hold.maxBytes) drain();
    // Unreferenced: a pending batch never keeps the process alive; exit flushes it (gateway-logger.ts).
    else if (timer === undefined) timer = setTimeout(drain, hold.ms).unref();
  };
  return {
    sink,
    get at() {
      return at;
    },
    room,
    commit,
    write(line) {
      // UTF-8 takes at most three bytes per UTF-16 unit (a surrogate pair's four bytes are two units).
      const target = room(line.length * 3);
      commit(at + target.write(line, at, 'utf8'));
    },
    flushSync() {
      drain();
      sink.flushSync();
    },
  };
}

/** Whether `stream` takes lines as bytes in place (a ByteBatchedStream). */
export function takesBytesInPlace(stream: unknown): stream is Pick<ByteBatchedStream, 'room' | 'at' | 'commit'> {
  const candidate = stream as Partial<ByteBatchedStream> | undefined;
  return typeof candidate?.room === 'function' && typeof candidate.commit === 'function' && typeof candidate.at === 'number';
}
