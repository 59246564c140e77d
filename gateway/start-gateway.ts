/**
 * Starts a gateway process from its configuration: opens the snapshot and key store, picks the limit
 * storage, builds the app and listens. Returns handles for reload and shutdown; never touches argv or
 * process.exit (the serve command does).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import type { GatewayConfig } from './config/parse-gateway-config.ts';
import { openKeyStore, type KeyStore } from './keys/key-store.ts';
import { MemoryRateLimiter } from './limits/memory-rate-limiter.ts';
import type { RateLimiter } from './limits/rate-limiter.ts';
import { RedisRateLimiter } from './limits/redis-rate-limiter.ts';
import { openSnapshot, type Snapshot } from './snapshot/open-snapshot.ts';
import { SnapshotHolder } from './snapshot/snapshot-holder.ts';

/** Where the gateway reports; the serve command writes these to stderr. */
export interface GatewayLog {
  info: (message: string) => void;
  error: (message: string) => void;
}

/** A listening gateway. */
export interface RunningGateway {
  readonly url: string;
  readonly server: Server;
  readonly snapshots: SnapshotHolder;
  /** Opens the configured dataset path again and swaps to it; a refused file keeps the old one serving. */
  reload(): { ok: true; revision: string } | { ok: false; reason: string };
  /** Stops accepting, lets in-flight requests finish, then releases every resource. */
  close(): Promise<void>;
}

/** Options for tests and benchmarks: the clock. */
export interface StartOptions {
  now?: () => number;
}

/** Starts a gateway. Throws (before listening) when the snapshot or key store cannot be opened. */
export async function startGateway(config: GatewayConfig, log: GatewayLog, options: StartOptions = {}): Promise<RunningGateway> {
  const now = options.now ?? Date.now;
  const snapshots = new SnapshotHolder(openSnapshot(config.dataset));
  let keys: KeyStore | undefined;
  let limiter: RateLimiter | undefined;
  try {
    keys = openKeyStore(config.keys, { now: () => new Date(now()) });
    limiter = config.redisUrl === undefined
      ? new MemoryRateLimiter({ limits: config.limits, now })
      : new RedisRateLimiter({ url: config.redisUrl, limits: config.limits, now, onError: (error) => log.error(`redis: ${error.message}`) });
  } catch (error) {
    snapshots.close();
    await keys?.close();
    throw error;
  }
  const keyStore = keys;
  const rateLimiter = limiter;
  if (config.redisUrl !== undefined && config.cursorSecret === undefined) {
    log.info('warning: no --cursor-secret with --redis: change-feed cursors work only on the gateway that issued them');
  }
  const app = createApp({
    snapshots,
    lookupKey: (raw) => keyStore.lookupKey(raw),
    limiter: rateLimiter,
    now,
    infrastructure: {
      sharedRateLimitStorage: rateLimiter.scheme === 'redis',
      rateLimitStorageScheme: rateLimiter.scheme,
      trustedOriginProxyConfigured: config.trustProxy,
    },
    trustProxy: config.trustProxy,
    cursorSecret: config.cursorSecret === undefined ? randomBytes(32) : Buffer.from(config.cursorSecret, 'utf8'),
    logError: (error, context) => log.error(`request ${context.requestId} ${context.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  });

  const server = createServer({ maxHeaderSize: 16 * 1024, requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 5_000 }, app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    server,
    snapshots,
    reload() {
      let next: Snapshot;
      try {
        next = openSnapshot(config.dataset);
      } catch (error) {
        return { ok: false, reason: (error as Error).message };
      }
      if (next.revision === snapshots.current.revision) {
        next.close();
        return { ok: true, revision: next.revision };
      }
      snapshots.swap(next);
      return { ok: true, revision: next.revision };
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await rateLimiter.close();
      await keyStore.close();
      snapshots.close();
    },
  };
}
