/**
 * Opens what a gateway keeps outside its snapshot: the key store, the change-feed cursor secret and the
 * rate-limit storage. On failure it closes whatever it had opened and rethrows, so nothing leaks.
 */
import { randomBytes } from 'node:crypto';
import type { GatewayConfig } from '../config/parse-gateway-config.ts';
import type { KeyStore } from '../keys/key-store.ts';
import { openKeyStoreAt, type KeyStoreScheme, type OpenedKeyStore } from '../keys/key-store-url.ts';
import { MemoryRateLimiter } from '../limits/memory-rate-limiter.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { GatewayLogger } from '../observability/gateway-logger.ts';

/** The gateway's open stores; the caller closes `keyStore` and `limiter` on shutdown. */
export interface GatewayStores {
  readonly keyStore: KeyStore;
  readonly keyStorageScheme: KeyStoreScheme;
  readonly cursorSecret: Buffer;
  readonly limiter: RateLimiter;
}

/** Opens the key store, settles the cursor secret and picks the limit storage named by `config`. */
export async function openGatewayStores(config: GatewayConfig, log: GatewayLogger, now: () => number): Promise<GatewayStores> {
  let keys: OpenedKeyStore | undefined;
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
    const cursorSecret = config.cursorSecret !== undefined
      ? Buffer.from(config.cursorSecret, 'utf8')
      : (await keys.sharedSecret?.('change-feed cursor')) ?? randomBytes(32);
    const limiter = config.redisUrl === undefined
      ? new MemoryRateLimiter({ limits: config.limits, now })
      // Loaded only when used: ioredis alone is a noticeable share of start-up (so is prom-client, in start-gateway.ts).
      : new (await import('../limits/redis-rate-limiter.ts')).RedisRateLimiter({ url: config.redisUrl, limits: config.limits, now, onError: (error) => log.error(`redis: ${error.message}`) });
    return { keyStore: keys.store, keyStorageScheme: keys.scheme, cursorSecret, limiter };
  } catch (error) {
    await keys?.store.close();
    throw error;
  }
}
