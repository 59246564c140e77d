/**
 * Starts a gateway process from its configuration: checks and opens the snapshot (load-snapshot.ts),
 * opens the key store, picks the limit storage, builds the app and listens. Returns handles for hot swap
 * (`reload`) and graceful shutdown (`close`); never touches argv, signals or process.exit (the serve
 * command does).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestListener } from './app.ts';
import { fileIdentity } from './files/file-identity.ts';
import type { GatewayConfig } from './config/parse-gateway-config.ts';
import { hardenServer, SERVER_LIMITS } from './http/harden-server.ts';
import { refuseLargeHeaderBlocks } from './http/refuse-large-header-blocks.ts';
import { openKeyStoreAt, type OpenedKeyStore } from './keys/key-store-url.ts';
import { MemoryRateLimiter } from './limits/memory-rate-limiter.ts';
import type { RateLimiter } from './limits/rate-limiter.ts';
import type { GatewayLogger } from './observability/gateway-logger.ts';
import { trackServerDrain, type DrainOptions, type DrainOutcome } from './operations/drain-server.ts';
import { loadSnapshot, type LoadedSnapshot } from './snapshot/load-snapshot.ts';
import { SnapshotHolder } from './snapshot/snapshot-holder.ts';

/** Where the gateway reports: its pino logger (JSON lines on stderr in `hra serve`; silent or capturing in tests). */
export type GatewayLog = GatewayLogger;

/** A listening gateway. */
export interface RunningGateway {
  readonly url: string;
  /** Base URL of the metrics admin server (`/metrics`), when `--metrics-port` is set. */
  readonly metricsUrl: string | undefined;
  readonly server: Server;
  readonly snapshots: SnapshotHolder;
  /** True once close() has begun: `/readyz` answers 503 from then on. */
  readonly draining: boolean;
  /**
   * Checks the file the dataset path resolves to now and swaps to it atomically (requests in flight finish
   * on the old snapshot, which closes after them); a refused file is logged and the old one keeps serving.
   * Calls are serialized; `trigger` names the cause in the log.
   */
  reload(trigger?: string): Promise<ReloadOutcome>;
  /**
   * Graceful shutdown: readiness fails, the listener closes, in-flight requests complete (each answered
   * with `Connection: close`), then every resource is released. Resolves with how the drain ended.
   */
  close(options?: Partial<DrainOptions>): Promise<DrainOutcome>;
}

/** What a reload did. */
export type ReloadOutcome =
  | { status: 'swapped'; revision: string; previous: string; checkMs: number }
  | { status: 'unchanged'; revision: string }
  | { status: 'refused'; revision: string; reason: string };

// In-process callers (tests) close idle keep-alive sockets at once; `hra serve` passes a grace.
const DEFAULT_DRAIN: DrainOptions = { idleGraceMs: 0, deadlineMs: 10_000 };

/** Options for tests and benchmarks: the clock, and whether the fast path answers the program routes. */
export interface StartOptions {
  now?: () => number;
  /** Default true; tests turn it off to compare the fast path with the Koa chain it stands in for. */
  fastPath?: boolean;
}

/** Starts a gateway. Throws (before listening) when the snapshot or key store cannot be opened. */
export async function startGateway(config: GatewayConfig, log: GatewayLog, options: StartOptions = {}): Promise<RunningGateway> {
  const now = options.now ?? Date.now;
  // Files this process has verified, so swapping back to a revision does not hash it again.
  const verified = new Map<string, string>();
  const first = await loadSnapshot(config.dataset, { verified });
  let servedIdentity = first.identity;
  const snapshots = new SnapshotHolder(first.snapshot);
  let keys: OpenedKeyStore | undefined;
  let limiter: RateLimiter | undefined;
  let cursorSecret: Buffer;
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
    cursorSecret = config.cursorSecret !== undefined
      ? Buffer.from(config.cursorSecret, 'utf8')
      : (await keys.sharedSecret?.('change-feed cursor')) ?? randomBytes(32);
    limiter = config.redisUrl === undefined
      ? new MemoryRateLimiter({ limits: config.limits, now })
      // Loaded only when used: ioredis alone is a noticeable share of start-up (so is prom-client, below).
      : new (await import('./limits/redis-rate-limiter.ts')).RedisRateLimiter({ url: config.redisUrl, limits: config.limits, now, onError: (error) => log.error(`redis: ${error.message}`) });
  } catch (error) {
    snapshots.close();
    await keys?.store.close();
    throw error;
  }
  const { store: keyStore, scheme: keyStorageScheme } = keys;
  const rateLimiter = limiter;
  if (config.redisUrl !== undefined && config.cursorSecret === undefined && keyStorageScheme === 'sqlite') {
    log.info('warning: no --cursor-secret with --redis: change-feed cursors work only on the gateway that issued them');
  }
  const metrics = config.metricsPort === undefined ? undefined : (await import('./observability/gateway-metrics.ts')).createGatewayMetrics({ revision: () => snapshots.current.revision });
  const listener = createRequestListener({
    snapshots,
    lookupKey: (raw) => keyStore.lookupKey(raw),
    limiter: rateLimiter,
    now,
    infrastructure: {
      sharedRateLimitStorage: rateLimiter.scheme === 'redis',
      rateLimitStorageScheme: rateLimiter.scheme,
      trustedOriginProxyConfigured: config.trustProxy,
      sharedKeyStorage: keyStorageScheme === 'postgres',
      keyStorageScheme,
    },
    trustProxy: config.trustProxy,
    cursorSecret,
    log,
    metrics,
    isDraining: () => drain.draining,
    cacheBytes: config.cacheBytes,
  }, { fastPath: options.fastPath });

  const server = createServer(SERVER_LIMITS, refuseLargeHeaderBlocks(listener));
  hardenServer(server, log);
  const drain = trackServerDrain(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const metricsServer = metrics === undefined ? undefined : await (await import('./observability/metrics-server.ts')).startMetricsServer(metrics.registry, { port: config.metricsPort ?? 0, host: config.host, log }).catch((error: unknown) => {
    server.close();
    throw error;
  });

  log.info({ revision: first.snapshot.revision, file: first.snapshot.file, bytes: first.bytes, checkMs: Math.round(first.checkMs) }, 'snapshot checked');

  const shutdown = new AbortController();
  let reloads: Promise<unknown> = Promise.resolve();
  const reloadOnce = async (trigger: string): Promise<ReloadOutcome> => {
    const serving = snapshots.current.revision;
    if (shutdown.signal.aborted) return { status: 'refused', revision: serving, reason: 'the gateway is shutting down' };
    // The same file (device, inode, size, times) as the one served: nothing to check or swap.
    if (fileIdentity(config.dataset) === servedIdentity) return { status: 'unchanged', revision: serving };
    let loaded: LoadedSnapshot;
    try {
      loaded = await loadSnapshot(config.dataset, { verified, signal: shutdown.signal });
    } catch (error) {
      const reason = (error as Error).message;
      if (!shutdown.signal.aborted) log.error({ trigger, serving, reason }, `${trigger}: new snapshot refused, still serving ${serving}`);
      return { status: 'refused', revision: serving, reason };
    }
    if (shutdown.signal.aborted) {
      loaded.snapshot.close();
      return { status: 'refused', revision: serving, reason: 'the gateway is shutting down' };
    }
    servedIdentity = loaded.identity;
    const revision = loaded.snapshot.revision;
    if (revision === serving) {
      loaded.snapshot.close();
      return { status: 'unchanged', revision };
    }
    snapshots.swap(loaded.snapshot);
    const checkMs = Math.round(loaded.checkMs);
    log.info({ trigger, revision, previous: serving, file: loaded.snapshot.file, checkMs, hashed: loaded.hashed }, `${trigger}: serving revision ${revision}`);
    return { status: 'swapped', revision, previous: serving, checkMs };
  };

  return {
    url: `http://${host}:${address.port}`,
    metricsUrl: metricsServer?.url,
    server,
    snapshots,
    get draining() {
      return drain.draining;
    },
    reload(trigger = 'reload') {
      const outcome = reloads.then(() => reloadOnce(trigger));
      reloads = outcome.catch(() => undefined);
      return outcome;
    },
    async close(drainOptions = {}) {
      // Abandons a swap check in progress: a file that is still being hashed is never served.
      shutdown.abort();
      const outcome = await drain.drain({ ...DEFAULT_DRAIN, ...drainOptions });
      await reloads;
      await metricsServer?.close();
      await rateLimiter.close();
      await keyStore.close();
      snapshots.close();
      return outcome;
    },
  };
}
