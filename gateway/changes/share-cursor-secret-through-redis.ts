/**
 * Shares the change-feed cursor secret through the rate limiter's Redis, for gateways whose key store
 * (SQLite) cannot: the first gateway to reach Redis stores its own secret under one key, and every gateway
 * adopts what that key holds. A gateway that starts while Redis is down signs with its own secret, adopts
 * the shared one once Redis answers, and keeps accepting what it signed before (cursor-keyring.ts). The
 * key is stored again after Redis restarts empty or loses it, so the gateways converge on one secret.
 */
import { Redis } from 'ioredis';
import type { CursorKeyring } from './cursor-keyring.ts';

/** The Redis key of the shared secret, beside the rate limiter's `hra:rl:` counters. */
export const CURSOR_SECRET_REDIS_KEY = 'hra:cursor-secret';

/** Inputs of `shareCursorSecretThroughRedis`. */
export interface ShareCursorSecretOptions {
  readonly url: string;
  /** The keyring to adopt the shared secret into; its signing secret is offered when Redis holds none. */
  readonly keyring: CursorKeyring;
  /** How often the key is read (and stored again if lost) while connected; 10 s unless told. */
  readonly recheckMs?: number;
  /** Longest TCP connect attempt, and longest wait for a reply; 500 ms unless told. */
  readonly timeoutMs?: number;
  /** Hears each adoption of a secret Redis holds, with its identifier. */
  readonly onAdopt?: (secretId: string) => void;
  /** Hears the first failure after each success (not each reconnect attempt: the rate limiter logs those). */
  readonly onError?: (error: Error) => void;
}

/** A running share; `close` ends it at once. */
export interface CursorSecretShare {
  /** Settles once the first exchange with Redis succeeded or failed, or after about twice the timeout. */
  readonly firstExchange: Promise<void>;
  /** True once an exchange succeeded: the keyring signs under the secret Redis holds. */
  readonly shared: boolean;
  close(): Promise<void>;
}

// Stores the offered secret unless one is there, and returns the one there: one atomic round trip.
const SHARE_SCRIPT = `redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])`;
// A secret longer than this in Redis was not written by a gateway; it is reported, not adopted.
const MAX_SECRET_LENGTH = 1024;

/** Starts sharing `keyring`'s secret through the Redis at `url`; never throws, failures go to `onError`. */
export function shareCursorSecretThroughRedis(options: ShareCursorSecretOptions): CursorSecretShare {
  const { keyring } = options;
  const timeoutMs = options.timeoutMs ?? 500;
  // The text offered and adopted: secrets travel as text, so an operator can pass one as --cursor-secret.
  let offered = keyring.signing.secret.toString('utf8');
  let failing = false;
  let shared = false;
  let settleFirst: () => void = () => undefined;
  const firstExchange = new Promise<void>((resolve) => (settleFirst = resolve));
  const firstTimer = setTimeout(() => settleFirst(), 2 * timeoutMs + 100);
  const redis = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    enableReadyCheck: false,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 50, 1000),
  });
  const fail = (error: Error): void => {
    settleFirst();
    if (failing) return;
    failing = true;
    options.onError?.(error);
  };
  const exchange = async (): Promise<void> => {
    try {
      const reply: unknown = await redis.eval(SHARE_SCRIPT, 1, CURSOR_SECRET_REDIS_KEY, offered);
      if (typeof reply !== 'string' || reply === '' || reply.length > MAX_SECRET_LENGTH) {
        throw new Error(`redis key ${CURSOR_SECRET_REDIS_KEY} holds no usable cursor secret (${typeof reply === 'string' ? `${reply.length} characters` : typeof reply})`);
      }
      failing = false;
      shared = true;
      offered = reply;
      if (keyring.adopt(Buffer.from(reply, 'utf8'))) options.onAdopt?.(keyring.signing.id);
      settleFirst();
    } catch (error) {
      fail(error instanceof Error ? error : new Error(String(error)));
    }
  };
  // Each (re)connection asks at once: after a Redis restart the first gateway back stores the secret again.
  redis.on('ready', () => void exchange());
  redis.on('error', fail);
  const recheck = setInterval(() => {
    if (redis.status === 'ready') void exchange();
  }, options.recheckMs ?? 10_000);
  recheck.unref();
  firstTimer.unref();
  return {
    firstExchange,
    get shared() {
      return shared;
    },
    close: () => {
      clearInterval(recheck);
      clearTimeout(firstTimer);
      settleFirst();
      // No QUIT: nothing is left to flush, and a stalled Redis would hold a shutdown for the reply timeout.
      redis.disconnect();
      return Promise.resolve();
    },
  };
}
