import type { Socket } from 'node:net';
import type { Command, Redis } from 'ioredis';

/** A command this sender can time out: `done` is set by whoever awaited it, once it has settled. */
export interface SentCommand extends Pick<Command, 'promise' | 'reject'> {
  done: boolean;
}

/**
 * Sends commands on a connected ioredis client with two rules ioredis's own `commandTimeout` lacks.
 *
 * 1. A command is late only if its reply was not there when the gateway looked after the deadline. Node
 *    runs due timers before it polls sockets, so a per-command timer (ioredis starts one per command)
 *    fires after any long turn of a busy loop (garbage collection, a burst of requests, the process
 *    descheduled on a loaded machine) even when Redis answered in microseconds and the reply lies unread
 *    in the socket: a healthy Redis turned into 503s. Here one timer watches the oldest unanswered command;
 *    when it fires (at `firedAt`) the verdict waits for the check phase (`setImmediate`), after the poll
 *    phase that began after `firedAt` and read every reply Redis had sent by then, and fails only
 *    commands written at least `timeoutMs` before `firedAt` and still unanswered: commands written later
 *    are not judged by how long that poll phase itself ran. A stalled or silent Redis still fails closed
 *    `timeoutMs` and one loop turn after the write.
 * 2. Commands issued in one loop turn leave in one write: the socket is corked at the turn's first
 *    command and uncorked in the check phase, and the deadline starts there, when the bytes are written.
 *    One `writev` for a turn's requests instead of one `write` each; Redis then answers them in one write too.
 *    ioredis's `enableAutoPipelining` (with this sender keeping only the deadline) was measured in its
 *    place and is slower: compiled gateway, `--redis`, wrk -t1 -c64, three runs alternating rounds, CPU
 *    per request median 52.4 against 45.9 µs, 43.4 against 35.2, 50.2 against 35.7 (1.14-1.41x), and a
 *    median p99 1.5-2.2x the cork's (BENCHMARKS.md, "Issue 25, `--redis`"). It keeps one pipeline in
 *    flight per connection, so a turn's commands wait for the previous pipeline's last reply, and a
 *    held command's write time is no longer known here, which rule 1 needs.
 */
export class RedisCommandSender {
  readonly #redis: Redis;
  readonly #timeoutMs: number;
  // Written and not yet done, oldest first (Redis answers one connection in order), with write times.
  #inFlight: (SentCommand | undefined)[] = [];
  #writtenAt: number[] = [];
  #head = 0;
  // Issued in this loop turn, waiting in the corked socket.
  #batch: SentCommand[] = [];
  #corked: Socket | undefined;
  // From arming the timer to the end of the verdict it leads to: one watch at a time.
  #watching = false;
  #timer: NodeJS.Timeout | undefined;
  #firedAt = 0;
  #closed = false;

  /** `timeoutMs` is the longest a written command waits for its reply before it is failed. */
  constructor(redis: Redis, timeoutMs: number) {
    this.#redis = redis;
    this.#timeoutMs = timeoutMs;
  }

  /** Queues `command` for this turn's write; the caller awaits `command.promise` and then sets `done`. */
  send(command: SentCommand & Command): void {
    const stream = this.#redis.stream as Socket | undefined;
    if (stream === undefined) {
      // No connection: ioredis rejects the command at once (no offline queue); nothing to write or watch.
      void this.#redis.sendCommand(command);
      return;
    }
    if (this.#corked !== stream) {
      // A new turn, or a socket replaced by a reconnect within one: write what the old one holds now.
      if (this.#corked === undefined) setImmediate(this.#flush);
      else this.#corked.uncork();
      stream.cork();
      this.#corked = stream;
    }
    this.#batch.push(command);
    // Rejects the command at once when the connection is not writable (no offline queue).
    void this.#redis.sendCommand(command);
  }

  /** Stops watching deadlines, for good; closing the connection rejects whatever is still unanswered. */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#closed = true;
  }

  readonly #flush = (): void => {
    this.#corked?.uncork();
    this.#corked = undefined;
    const now = performance.now();
    for (const command of this.#batch) {
      this.#inFlight.push(command);
      this.#writtenAt.push(now);
    }
    this.#batch.length = 0;
    this.#dropDone();
    if (!this.#watching && this.#head < this.#inFlight.length) this.#arm(now);
  };

  readonly #onTimer = (): void => {
    this.#timer = undefined;
    this.#firedAt = performance.now();
    setImmediate(this.#judge);
  };

  // In the check phase, after a poll phase that began after #firedAt.
  readonly #judge = (): void => {
    const lateIfWrittenBefore = this.#firedAt - this.#timeoutMs;
    let overdue: Error | undefined;
    while (this.#head < this.#inFlight.length) {
      const command = this.#inFlight[this.#head] as SentCommand;
      if (!command.done) {
        if ((this.#writtenAt[this.#head] as number) > lateIfWrittenBefore) break;
        overdue ??= new Error(`no reply from redis within ${this.#timeoutMs} ms of the write`);
        // As ioredis's own timeout does: a reply arriving later resolves a settled promise, a no-op.
        command.reject(overdue);
      }
      this.#inFlight[this.#head++] = undefined;
    }
    this.#dropDone();
    this.#watching = false;
    if (this.#head < this.#inFlight.length) this.#arm(performance.now());
  };

  #arm(now: number): void {
    if (this.#closed) return;
    this.#watching = true;
    const due = (this.#writtenAt[this.#head] as number) + this.#timeoutMs - now;
    this.#timer = setTimeout(this.#onTimer, Math.max(1, Math.ceil(due)));
  }

  // Drops answered commands from the front, so none is held past its reply (or its turn) for long.
  #dropDone(): void {
    const inFlight = this.#inFlight;
    while (this.#head < inFlight.length && (inFlight[this.#head] as SentCommand).done) inFlight[this.#head++] = undefined;
    if (this.#head === inFlight.length) {
      inFlight.length = 0;
      this.#writtenAt.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024) {
      this.#inFlight = inFlight.slice(this.#head);
      this.#writtenAt = this.#writtenAt.slice(this.#head);
      this.#head = 0;
    }
  }
}
