/**
 * Starts a gateway process from its configuration: checks and opens the snapshot (load-snapshot.ts) and
 * watches the file it serves (watch-served-file.ts),
 * opens the stores (open-gateway-stores.ts), builds the app and listens (listen-gateway.ts). Returns
 * handles for hot swap (`reload`, reload-snapshot.ts) and graceful shutdown (`close`,
 * shutdown-gateway.ts); never touches argv, signals or process.exit (the serve command does).
 */
import type { Server } from 'node:http';
import { createRequestListener } from './app.ts';
import { createEncodedBodies, type EncodedBodies } from './encoding/encoded-bodies.ts';
import { splitCacheBudget } from './programs/cache-budget.ts';
import type { GatewayConfig } from './config/parse-gateway-config.ts';
import type { GatewayLogger } from './observability/gateway-logger.ts';
import type { DrainOptions, DrainOutcome } from './operations/drain-server.ts';
import { listenGateway } from './operations/listen-gateway.ts';
import { openGatewayStores, type GatewayStores } from './operations/open-gateway-stores.ts';
import { shutdownGateway } from './operations/shutdown-gateway.ts';
import type { RouteTable } from './routes/route-entry.ts';
import { loadSnapshot } from './snapshot/load-snapshot.ts';
import { createSnapshotReloader, type ReloadOutcome } from './snapshot/reload-snapshot.ts';
import { SnapshotHolder } from './snapshot/snapshot-holder.ts';
import type { SnapshotHashInFlight } from './snapshot/start-snapshot-hash.ts';
import { watchServedFile } from './snapshot/watch-served-file.ts';

export type { ReloadOutcome } from './snapshot/reload-snapshot.ts';

/** Where the gateway reports: its pino logger (JSON lines on stderr in `hra serve`; silent or capturing in tests). */
export type GatewayLog = GatewayLogger;

/** A listening gateway. */
export interface RunningGateway {
  readonly url: string;
  /** Base URL of the metrics admin server (`/metrics`), when `--metrics-port` is set. */
  readonly metricsUrl: string | undefined;
  readonly server: Server;
  readonly snapshots: SnapshotHolder;
  /**
   * The compressed (br, gzip) forms of the served snapshot's bodies: dropped on a swap, and by `drop()` when
   * the served file must not be read again; `settled()` waits for compressions in flight.
   */
  readonly encodings: EncodedBodies;
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

/** Options for `hra serve`, tests and benchmarks: an early hash, the clock, whether the fast path answers, and the routes to serve. */
export interface StartOptions {
  /**
   * The hash of `config.dataset` that `hra serve` started before loading the gateway (start-snapshot-hash.ts).
   * The start-up check takes it over (load-snapshot.ts): nothing listens before its digests are compared.
   */
  snapshotHash?: SnapshotHashInFlight;
  now?: () => number;
  /** Default true; tests turn it off to compare the fast path with the Koa chain it stands in for. */
  fastPath?: boolean;
  /** The route table unless told: tests serve a copy with a route added or deprecated. */
  routes?: RouteTable;
}

/** Starts a gateway. Throws (before listening) when the snapshot or key store cannot be opened. */
export async function startGateway(config: GatewayConfig, log: GatewayLog, options: StartOptions = {}): Promise<RunningGateway> {
  const now = options.now ?? Date.now;
  // Files this process has verified, so swapping back to a revision does not hash it again.
  const verified = new Map<string, string>();
  const first = await loadSnapshot(config.dataset, { verified, inFlight: options.snapshotHash });
  const snapshots = new SnapshotHolder(first.snapshot);
  let stores: GatewayStores;
  try {
    stores = await openGatewayStores(config, log, now);
  } catch (error) {
    snapshots.close();
    throw error;
  }
  const { keyStore, keyStorageScheme, cursorSecret, limiter } = stores;
  if (config.redisUrl !== undefined && config.cursorSecret === undefined && keyStorageScheme === 'sqlite') {
    log.info('warning: no --cursor-secret with --redis: change-feed cursors work only on the gateway that issued them');
  }
  // Loaded only when used, like ioredis: prom-client is a noticeable share of start-up.
  const metrics = config.metricsPort === undefined ? undefined : (await import('./observability/gateway-metrics.ts')).createGatewayMetrics({ revision: () => snapshots.current.revision });
  // The served snapshot's compressed bodies: made here so that they are the gateway's to drop and wait on.
  const encodings = createEncodedBodies({
    servedSnapshot: () => snapshots.current,
    maxBytes: splitCacheBudget(config.cacheBytes).encodedBytes,
    onError: (error) => log.error({ err: error }, 'compressing a response body failed; it is sent uncompressed'),
  });
  const listener = createRequestListener({
    snapshots,
    encodings,
    lookupKey: (raw) => keyStore.lookupKey(raw),
    limiter,
    now,
    infrastructure: {
      sharedRateLimitStorage: limiter.scheme === 'redis',
      rateLimitStorageScheme: limiter.scheme,
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
    routes: options.routes,
  }, { fastPath: options.fastPath });

  const { server, drain, url } = await listenGateway(listener, config, log);
  const metricsServer = metrics === undefined ? undefined : await (await import('./observability/metrics-server.ts')).startMetricsServer(metrics.registry, { port: config.metricsPort ?? 0, host: config.host, log }).catch((error: unknown) => {
    server.close();
    throw error;
  });

  log.info({ revision: first.snapshot.revision, file: first.snapshot.file, bytes: first.bytes, checkMs: Math.round(first.checkMs), hashedEarly: first.hashedEarly }, 'snapshot checked');

  const shutdown = new AbortController();
  const reloader = createSnapshotReloader({ dataset: config.dataset, snapshots, servedIdentity: first.identity, verified, signal: shutdown.signal, log });
  // A served file changed, truncated or deleted in place stops being served within a fraction of a second.
  const watch = watchServedFile({ dataset: config.dataset, snapshots, reloader, log });

  return {
    url,
    metricsUrl: metricsServer?.url,
    server,
    snapshots,
    encodings,
    get draining() {
      return drain.draining;
    },
    reload: (trigger = 'reload') => reloader.reload(trigger),
    close: (drainOptions = {}) => {
      watch.close();
      return shutdownGateway({ shutdown, drain, reloadsSettled: reloader.settled, metricsServer, limiter, keyStore, snapshots }, drainOptions);
    },
  };
}
