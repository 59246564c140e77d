/**
 * Opens what a gateway keeps outside its snapshot: the key store, the change-feed cursor secret and the
 * rate-limit storage. On failure it closes whatever it had opened and rethrows, so nothing leaks.
 */
import { randomBytes } from 'node:crypto';
import { CursorKeyring } from '../changes/cursor-keyring.ts';
import type { CursorSecretShare } from '../changes/share-cursor-secret-through-redis.ts';
import type { GatewayConfig } from '../config/parse-gateway-config.ts';
import type { KeyStore } from '../keys/key-store.ts';
import { openKeyStoreAt, type KeyStoreScheme, type OpenedKeyStore } from '../keys/key-store-url.ts';
import { MemoryRateLimiter } from '../limits/memory-rate-limiter.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { GatewayLogger } from '../observability/gateway-logger.ts';
import { throttleReport } from '../observability/throttle-report.ts';

/** The fix a cursor-secret mismatch log line names. */
export const CURSOR_SECRET_FIX = 'set the same --cursor-secret on every gateway, or none on any and share a postgres:// key store or --redis';

/** Least time between two log lines about cursors under a foreign secret: clients choose how often they come. */
export const CURSOR_MISMATCH_LOG_INTERVAL_MS = 60_000;

/** Where the cursor secret came from: the flag, the PostgreSQL key store, Redis, or this process alone. */
export type CursorSecretSource = 'flag' | 'postgres' | 'redis' | 'process';

/** The gateway's open stores; the caller closes `keyStore`, `limiter` and `cursorSecretShare` on shutdown. */
export interface GatewayStores {
  readonly keyStore: KeyStore;
  readonly keyStorageScheme: KeyStoreScheme;
  readonly cursorKeys: CursorKeyring;
  /** The sharing of the cursor secret through Redis, when it is shared there. */
  readonly cursorSecretShare: CursorSecretShare | undefined;
  readonly limiter: RateLimiter;
  /** Logs which cursor secret signs and where it comes from; called once the gateway listens. */
  readonly announceCursorSecret: () => void;
}

/** Opens the key store, settles the cursor secret and picks the limit storage named by `config`. */
export async function openGatewayStores(config: GatewayConfig, log: GatewayLogger, now: () => number): Promise<GatewayStores> {
  let keys: OpenedKeyStore | undefined;
  let limiter: RateLimiter | undefined;
  try {
    keys = await openKeyStoreAt(config.keys, {
      now: () => new Date(now()),
      role: 'gateway',
      // Only `hra keys create` makes a store: a mistyped --keys must not serve an empty one, refusing every key.
      create: false,
      onStatus: (status, detail) => (status === 'lost' ? log.error(detail) : log.info(detail)),
      onFileChange: (event) => {
        if (event.kind === 'unavailable') log.error({ keys: event.path, reason: event.reason }, 'key store unavailable: licensed routes answer 503 until it can be read');
        // Every `hra keys` write rewrites the file in place; only a replacement or a recovery is news.
        else if (event.cause === 'rewritten') log.debug({ keys: event.path }, 'key store rewritten in place: reopened');
        else log.info({ keys: event.path, cause: event.cause }, `key store ${event.cause}: reading the file now at ${event.path}`);
      },
    });
    // The flag wins; else a shared store's secret, so a cursor issued by one host pages on every other.
    const fromKeys = config.cursorSecret === undefined ? await keys.sharedSecret?.('change-feed cursor') : undefined;
    const source: CursorSecretSource = config.cursorSecret !== undefined ? 'flag' : fromKeys !== undefined ? 'postgres' : config.redisUrl !== undefined ? 'redis' : 'process';
    limiter = config.redisUrl === undefined
      ? new MemoryRateLimiter({ limits: config.limits, now })
      // Loaded only when used: ioredis alone is a noticeable share of start-up (so is prom-client, in start-gateway.ts).
      : new (await import('../limits/redis-rate-limiter.ts')).RedisRateLimiter({ url: config.redisUrl, limits: config.limits, now, onError: (error) => log.error(`redis: ${error.message}`) });
    // Text, like the flag's: a secret shared through Redis can be read there and given as --cursor-secret.
    const own = Buffer.from(config.cursorSecret ?? randomBytes(32).toString('base64url'), 'utf8');
    const reportMismatch = throttleReport((dropped: number, secretId: string, held: readonly string[]) => {
      log.error({ cursorSecretId: secretId, heldCursorSecretIds: held, droppedSinceLastLine: dropped }, `a change-feed cursor signed under cursor secret ${secretId} reached this gateway, which holds ${held.join(', ')}: gateways behind one address sign with different secrets, and clients get 503 CURSOR_SECRET_MISMATCH; ${CURSOR_SECRET_FIX}`);
    }, CURSOR_MISMATCH_LOG_INTERVAL_MS, now);
    const cursorKeys = new CursorKeyring(fromKeys ?? own, { onUnknownSecret: reportMismatch });
    const cursorSecretShare = source === 'redis' && config.redisUrl !== undefined
      ? await shareThroughRedis(config.redisUrl, cursorKeys, log)
      : undefined;
    const words = () => (source === 'redis' && cursorSecretShare?.shared !== true ? 'this process\'s own until --redis answers' : SOURCE_WORDS[source]);
    // Said once the gateway listens: a start refused later (a bad snapshot, a busy port) prints only its one line.
    const announceCursorSecret = () => log.info({ cursorSecretId: cursorKeys.signing.id, cursorSecretSource: source }, `change-feed cursors are signed under cursor secret ${cursorKeys.signing.id} (${words()})`);
    return { keyStore: keys.store, keyStorageScheme: keys.scheme, cursorKeys, cursorSecretShare, limiter, announceCursorSecret };
  } catch (error) {
    await limiter?.close();
    await keys?.store.close();
    throw error;
  }
}

const SOURCE_WORDS: Readonly<Record<CursorSecretSource, string>> = {
  flag: 'from --cursor-secret',
  postgres: 'kept in the postgres:// key store',
  redis: 'shared through --redis',
  process: 'random for this process: only this gateway accepts its cursors',
};

// Waits for the first exchange (bounded: about a second when Redis does not answer), so a gateway that can
// reach Redis never signs a cursor under its own secret first.
async function shareThroughRedis(url: string, keyring: CursorKeyring, log: GatewayLogger): Promise<CursorSecretShare> {
  const { shareCursorSecretThroughRedis } = await import('../changes/share-cursor-secret-through-redis.ts');
  // An adoption during the first exchange is told by the start-up line.
  let started = false;
  const share = shareCursorSecretThroughRedis({
    url,
    keyring,
    onAdopt: (secretId) => started && log.info({ cursorSecretId: secretId }, `change-feed cursors are now signed under cursor secret ${secretId}, shared through --redis; earlier ones are still accepted`),
    onError: (error) => log.error({ cursorSecretId: keyring.signing.id }, `redis: cannot share the change-feed cursor secret (${error.message}); signing under cursor secret ${keyring.signing.id} until redis answers`),
  });
  await share.firstExchange;
  started = true;
  return share;
}
