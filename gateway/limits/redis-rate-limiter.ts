import { createHash } from 'node:crypto';
import { Command, Redis } from 'ioredis';
import { decideLimit } from './decide-limit.ts';
import type { LimitTable, LimitTier } from './limit-table.ts';
import { tablePolicies, windowSlots, type LimitPolicy, type LimitSubject, type WindowSlot } from './limit-windows.ts';
import { RateLimitStorageError, type LimitDecision, type RateLimiter } from './rate-limiter.ts';
import { RedisCommandSender, type SentCommand } from './redis-command-sender.ts';

/** Inputs of `RedisRateLimiter`. Timeouts are real milliseconds; `now` (epoch ms) places the windows. */
export interface RedisRateLimiterOptions {
  readonly url: string;
  readonly limits: LimitTable;
  readonly now: () => number;
  /**
   * Longest wait for a reply after the command was written, and for a connection in progress, before
   * failing closed; 50 ms unless told. A reply that arrived while the event loop was busy is not late.
   */
  readonly commandTimeoutMs?: number;
  /** Longest TCP connect attempt; 500 ms unless told. */
  readonly connectTimeoutMs?: number;
  /** Cap of the reconnect backoff (50 ms, 100 ms, ... up to this); 1000 ms unless told. */
  readonly maxReconnectDelayMs?: number;
  /** Namespace of every key; `hra:rl:` unless told. */
  readonly keyPrefix?: string;
  /** Hears connection errors (for the log); they are otherwise reported only as failed calls. */
  readonly onError?: (error: Error) => void;
}

// KEYS: one counter per window; ARGV: the quotas, then each key's TTL in ms. Reads every window first
// and counts only if all have room, so a rejected request consumes nothing. Returns {allowed, counts...}.
const CONSUME_SCRIPT = `
local n = #KEYS
local result = {1}
for i = 1, n do
  result[i + 1] = tonumber(redis.call('GET', KEYS[i]) or '0')
  if result[i + 1] >= tonumber(ARGV[i]) then result[1] = 0 end
end
if result[1] == 1 then
  for i = 1, n do
    result[i + 1] = redis.call('INCR', KEYS[i])
    if result[i + 1] == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[n + i]) end
  end
end
return result`;

const CONSUME_SCRIPT_SHA = createHash('sha1').update(CONSUME_SCRIPT).digest('hex');

// Counters outlive their window by this much, so gateways whose clocks differ slightly share them.
const EXPIRY_GRACE_MS = 60_000;

/** One EVALSHA (or EVAL) of the script, timed out by the sender. */
class ScriptCommand extends Command implements SentCommand {
  done = false;
}

/**
 * Window counters shared in Redis, so every gateway enforces one limit per key.
 * One atomic round trip per request: a Lua script, sent as EVALSHA, checks and increments both windows;
 * only a call that finds Redis without the script (after a restart) adds an EVAL. Commands go out
 * through `RedisCommandSender`: one write per event-loop turn, and a reply deadline that a busy loop
 * cannot trip. rate-limiter-flexible was not used: it keeps one window per limiter (two windows cost two round
 * trips through `RateLimiterUnion`), starts a window at a key's first request rather than on the clock,
 * and counts rejected requests.
 * Windows are placed with the injected clock: gateways share wall time, so they agree on boundaries,
 * and tests can step windows; TTLs are relative, so a fake clock never expires a key early. Keys are
 * `<prefix>k:{<sha256 of the key id, 22 base64url chars>}:m:<window start s>` (`a:` for client
 * addresses, `:d:` for days); the braces keep a request's keys in one Redis Cluster slot.
 * Fails closed and fast: no offline queue, no retried or resent command, a reply deadline, and every
 * failure thrown as `RateLimitStorageError`; the client reconnects in the background with capped
 * backoff, so calls succeed again as soon as Redis is back, without a restart. A call waits at most
 * `commandTimeoutMs` for a connection in progress and then `commandTimeoutMs` after its write for the
 * reply (twice, when Redis lacked the script).
 */
export class RedisRateLimiter implements RateLimiter {
  /** Counters live in Redis. */
  readonly scheme = 'redis';
  readonly #policies: Readonly<Record<LimitSubject, LimitPolicy>>;
  readonly #now: () => number;
  readonly #prefix: string;
  readonly #commandTimeoutMs: number;
  readonly #redis: Redis;
  readonly #sender: RedisCommandSender;
  // The windows of each subject's policy, placed on the clock once per minute, not per request.
  readonly #slots = new Map<LimitSubject, PlacedSlots>();
  #connecting: Promise<void> | undefined;
  // A subject's key part is a SHA-256 of its id: hashed once per subject, not per request.
  readonly #keySubjects = new SubjectKeys('k');
  readonly #addressSubjects = new SubjectKeys('a');

  /** Opens the connection in the background; calls made before it is up wait for it, within the timeout. */
  constructor(options: RedisRateLimiterOptions) {
    this.#policies = tablePolicies(options.limits);
    this.#now = options.now;
    this.#prefix = options.keyPrefix ?? 'hra:rl:';
    this.#commandTimeoutMs = options.commandTimeoutMs ?? 50;
    const maxDelay = options.maxReconnectDelayMs ?? 1000;
    this.#redis = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      // Ready as soon as TCP connects; an unanswered INFO would otherwise leave it never ready, untimed.
      enableReadyCheck: false,
      // No ioredis commandTimeout: its per-command timer fires before a busy loop reads a reply that has
      // arrived; the sender keeps the deadline instead.
      connectTimeout: options.connectTimeoutMs ?? 500,
      retryStrategy: (attempt) => Math.min(attempt * 50, maxDelay),
    });
    this.#redis.on('error', (error: Error) => options.onError?.(error));
    this.#sender = new RedisCommandSender(this.#redis, this.#commandTimeoutMs);
  }

  /** Counts one licensed request of `keyId` under its current `tier`'s limits. */
  consumeKey(keyId: string, tier: LimitTier): Promise<LimitDecision> {
    return this.#consume(this.#keySubjects.of(keyId), tier);
  }

  /** Counts one keyless request from client `address` under the public limit. */
  consumePublic(address: string): Promise<LimitDecision> {
    return this.#consume(this.#addressSubjects.of(address), 'public');
  }

  /** Closes the connection (politely if it is up); later calls fail with `RateLimitStorageError`. */
  async close(): Promise<void> {
    this.#sender.close();
    if (this.#redis.status === 'ready') await this.#redis.quit().catch(() => undefined);
    this.#redis.disconnect();
  }

  async #consume(subject: SubjectKey, tier: LimitSubject): Promise<LimitDecision> {
    const policy = this.#policies[tier];
    if (policy === undefined) throw new TypeError(`unknown rate-limit tier ${JSON.stringify(tier)}`);
    const nowMs = this.#now();
    const slots = this.#placedSlots(tier, policy, nowMs);
    const keys = subject.keysFor(slots, this.#prefix);
    const n = slots.length;
    const args: (string | number)[] = [CONSUME_SCRIPT_SHA, n, ...keys];
    for (let i = 0; i < n; i++) args.push((slots[i] as WindowSlot).quota);
    for (let i = 0; i < n; i++) args.push((slots[i] as WindowSlot).endMs - nowMs + EXPIRY_GRACE_MS);
    let reply: unknown;
    try {
      // Connected (the steady state): straight to the command, without a turn through #whenConnected.
      if (this.#redis.status !== 'ready') await this.#whenConnected();
      try {
        reply = await this.#run(new ScriptCommand('evalsha', args));
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        // Redis restarted (or its script cache was flushed): send the script itself, which also loads it.
        args[0] = CONSUME_SCRIPT;
        reply = await this.#run(new ScriptCommand('eval', args));
      }
    } catch (error) {
      if (error instanceof RateLimitStorageError) throw error;
      throw new RateLimitStorageError(`redis rate-limit storage failed: ${(error as Error).message}`, { cause: error });
    }
    if (!isCountsReply(reply, n)) throw new RateLimitStorageError(`redis rate-limit script returned ${JSON.stringify(reply)}`);
    return decideLimit(policy, slots, reply.slice(1), reply[0] === 1, nowMs);
  }

  async #run(command: ScriptCommand): Promise<unknown> {
    this.#sender.send(command);
    try {
      return await command.promise;
    } finally {
      command.done = true;
    }
  }

  // Windows are fixed and clock-aligned, and a day ends on a minute boundary: one placement per minute.
  #placedSlots(tier: LimitSubject, policy: LimitPolicy, nowMs: number): readonly WindowSlot[] {
    const placed = this.#slots.get(tier);
    if (placed !== undefined && placed.policy === policy && nowMs >= placed.fromMs && nowMs < placed.untilMs) return placed.slots;
    const slots = Object.freeze(windowSlots(policy, nowMs));
    const minute = slots[0] as WindowSlot;
    this.#slots.set(tier, { policy, fromMs: minute.startMs, untilMs: minute.endMs, slots });
    return slots;
  }

  async #whenConnected(): Promise<void> {
    const status = this.#redis.status;
    if (status === 'ready') return;
    if (status !== 'connecting' && status !== 'connect') {
      throw new RateLimitStorageError(`redis rate-limit storage is unavailable (${status})`);
    }
    // One shared wait however many calls wait, each bounding its own. It ends at the connection
    // attempt's outcome; the status check below turns anything but 'ready' into a failure.
    this.#connecting ??= nextOutcome(this.#redis).finally(() => (this.#connecting = undefined));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new RateLimitStorageError(`redis not connected within ${this.#commandTimeoutMs} ms`));
      }, this.#commandTimeoutMs);
    });
    try {
      await Promise.race([this.#connecting, timeout]);
    } finally {
      clearTimeout(timer);
    }
    if (this.#redis.status !== 'ready') {
      throw new RateLimitStorageError(`redis rate-limit storage is unavailable (${this.#redis.status})`);
    }
  }
}

/** Resolves at the first sign of how a connection attempt went, whatever it was. */
function nextOutcome(redis: Redis): Promise<void> {
  const events = ['ready', 'error', 'close', 'end'] as const;
  return new Promise((resolve) => {
    const done = (): void => {
      for (const event of events) redis.off(event, done);
      resolve();
    };
    for (const event of events) redis.on(event, done);
  });
}

/** A policy's windows placed on the clock, valid for `[fromMs, untilMs)` (one minute). */
interface PlacedSlots {
  readonly policy: LimitPolicy;
  readonly fromMs: number;
  readonly untilMs: number;
  readonly slots: readonly WindowSlot[];
}

/** True when `reply` is the script's `{allowed, count...}` for `n` windows. */
function isCountsReply(reply: unknown, n: number): reply is number[] {
  if (!Array.isArray(reply) || reply.length !== n + 1) return false;
  for (const value of reply) if (!Number.isInteger(value)) return false;
  return true;
}

/** One subject's Redis key part, with its window keys for the slots it was last asked about. */
class SubjectKey {
  readonly #part: string;
  #slots: readonly WindowSlot[] | undefined;
  #keys: readonly string[] = [];

  constructor(part: string) {
    this.#part = part;
  }

  /** `<prefix><part>:<m|d>:<window start s>` for each slot; rebuilt only when the slots change (each minute). */
  keysFor(slots: readonly WindowSlot[], prefix: string): readonly string[] {
    if (this.#slots !== slots) {
      this.#keys = slots.map((slot) => `${prefix}${this.#part}:${slot.name[0]}:${slot.startMs / 1000}`);
      this.#slots = slots;
    }
    return this.#keys;
  }
}

/**
 * The Redis key of each subject (`k:{<digest>}`), remembered. Bounded: client addresses are the
 * clients' to choose, so past `max` subjects the table starts over rather than grow.
 */
class SubjectKeys {
  readonly #kind: string;
  readonly #max: number;
  readonly #known = new Map<string, SubjectKey>();

  constructor(kind: 'k' | 'a', max = 10_000) {
    this.#kind = kind;
    this.#max = max;
  }

  of(id: string): SubjectKey {
    let key = this.#known.get(id);
    if (key === undefined) {
      key = new SubjectKey(`${this.#kind}:{${digest(id)}}`);
      if (this.#known.size >= this.#max) this.#known.clear();
      this.#known.set(id, key);
    }
    return key;
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}
