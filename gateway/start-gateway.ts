/**
 * Starts a gateway process from its configuration: checks and opens the snapshot (load-snapshot.ts) and
 * watches the file it serves (watch-served-file.ts); while the snapshot's content is hashed, opens the
 * stores (open-gateway-stores.ts) and builds the app; listens (listen-gateway.ts) once the check passed. Returns
 * handles for hot swap (`reload`, reload-snapshot.ts) and graceful shutdown (`close`,
 * shutdown-gateway.ts); never touches argv, signals or process.exit (the serve command does).
 */
import type { RequestListener, Server } from 'node:http';
import { createRequestListener } from './app.ts';
import { createEncodedBodies, type EncodedBodies, type PrepareReport } from './encoding/encoded-bodies.ts';
import { holdTickObjectShape } from './operations/hold-tick-object-shape.ts';
import { splitCacheBudget } from './programs/cache-budget.ts';
import type { GatewayConfig } from './config/parse-gateway-config.ts';
import type { GatewayLogger } from './observability/gateway-logger.ts';
import type { GatewayMetrics } from './observability/gateway-metrics.ts';
import type { ConnectionCap } from './operations/cap-connections.ts';
import type { DrainOptions, DrainOutcome } from './operations/drain-server.ts';
import { listenGateway } from './operations/listen-gateway.ts';
import { openGatewayStores, type GatewayStores } from './operations/open-gateway-stores.ts';
import { shutdownGateway } from './operations/shutdown-gateway.ts';
import type { RouteTable } from './routes/route-entry.ts';
import { loadSnapshot, type LoadedSnapshot } from './snapshot/load-snapshot.ts';
import { createSnapshotReloader, type ReloadOutcome } from './snapshot/reload-snapshot.ts';
import type { Snapshot } from './snapshot/open-snapshot.ts';
import { SnapshotHolder } from './snapshot/snapshot-holder.ts';
import type { SnapshotHashInFlight } from './snapshot/start-snapshot-hash.ts';
import { watchServedFile } from './snapshot/watch-served-file.ts';

export type { ReloadOutcome } from './snapshot/reload-snapshot.ts';

/** How long a failed start waits for its stores to close before it reports the failure all the same. */
const FAILED_START_CLOSE_MS = 300;

/** Where the gateway reports: its pino logger (JSON lines on stderr in `hra serve`; silent or capturing in tests). */
export type GatewayLog = GatewayLogger;

/** A listening gateway. */
export interface RunningGateway {
  readonly url: string;
  /** Base URL of the metrics admin server (`/metrics`), when `--metrics-port` is set. */
  readonly metricsUrl: string | undefined;
  readonly server: Server;
  /** The cap on the server's open connections (`--max-connections`), with what it closed. */
  readonly connections: ConnectionCap;
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
  // `hra serve` has done it before loading the gateway; a process that starts a gateway otherwise does it here.
  holdTickObjectShape();
  const now = options.now ?? Date.now;
  // Files this process has verified, so swapping back to a revision does not hash it again.
  const verified = new Map<string, string>();
  let isDraining = () => false;
  const prepare = (snapshot: Snapshot) => settle(prepareServing(snapshot, config, log, { now, options, isDraining: () => isDraining() }));
  // The stores and the request listener do not depend on the file's verification: they are made while its
  // content is hashed, 40-120 ms of CPU that used to follow the hash at start-up (BENCHMARKS.md, issue 25
  // goal 3). Nothing listens before loadSnapshot resolves, so nothing answers from an unverified file.
  let prepared: Promise<Settled<PreparedServing>> | undefined;
  let first: LoadedSnapshot;
  try {
    first = await loadSnapshot(config.dataset, { verified, inFlight: options.snapshotHash, whileHashing: (snapshot) => (prepared = prepare(snapshot)) });
  } catch (error) {
    // The file was refused and closed; the refusal is the error to report, whatever became of the stores.
    const made = await prepared;
    if (made?.ok === true) await closeStores(made.value.stores, log);
    throw error;
  }
  const made = await (prepared ?? prepare(first.snapshot));
  if (!made.ok) {
    first.snapshot.close();
    throw made.error;
  }
  const { snapshots, stores, metrics, encodings, listener, compressingEarly } = made.value;
  const { keyStore, limiter, cursorSecretShare } = stores;

  // The bodies a shared cache may store are compressed before the first request, as before each swap.
  const compress = async (snapshot: Snapshot): Promise<PrepareReport | undefined> => {
    try {
      return await encodings.prepare(snapshot);
    } catch (error) {
      log.error({ err: error }, 'compressing bodies ahead of use failed; they are compressed on demand');
      return undefined;
    }
  };
  const logCompressed = (snapshot: Snapshot, report: PrepareReport | undefined, snapshotIndependentOnly: boolean) => {
    if (report === undefined) return;
    log.info({ revision: snapshot.revision, snapshotIndependentOnly, ...report, ms: Math.round(report.ms), cpuMs: Math.round(report.cpuMs) }, 'bodies compressed ahead of use');
  };
  const early = await compressingEarly;
  const atStart = await compress(first.snapshot);

  // A listener that cannot bind must not leave the stores open (a Redis or PostgreSQL connection keeps the
  // process alive): they are closed before the failure is reported, so a refused start ends.
  const releaseOnFailure = async (error: unknown): Promise<never> => {
    await closeStores(stores, log);
    snapshots.close();
    throw error;
  };
  const { server, drain, connections, url } = await listenGateway(listener, config, log).catch(releaseOnFailure);
  const { maxConnections, descriptorLimit } = config;
  log.info({ maxConnections, descriptorLimit: descriptorLimit ?? null }, `at most ${maxConnections} open connections (${config.sources.maxConnections}; open-file limit ${descriptorLimit ?? 'unknown'})`);
  stores.announceCursorSecret();
  isDraining = () => drain.draining;
  const metricsServer = metrics === undefined ? undefined : await (await import('./observability/metrics-server.ts')).startMetricsServer(metrics.registry, { port: config.metricsPort ?? 0, host: config.host, log }).catch((error: unknown) => {
    server.close();
    return releaseOnFailure(error);
  });

  log.info({ revision: first.snapshot.revision, file: first.snapshot.file, bytes: first.bytes, checkMs: Math.round(first.checkMs), hashedEarly: first.hashedEarly }, 'snapshot checked');
  // Logged once listening, like the check: a start that fails ends on its one `hra:` line.
  logCompressed(first.snapshot, early, true);
  logCompressed(first.snapshot, atStart, false);

  const shutdown = new AbortController();
  const reloader = createSnapshotReloader({ dataset: config.dataset, snapshots, servedIdentity: first.identity, verified, signal: shutdown.signal, log, beforeSwap: async (next) => logCompressed(next, await compress(next), false) });
  // A served file changed, truncated or deleted in place stops being served within a fraction of a second.
  const watch = watchServedFile({ dataset: config.dataset, snapshots, reloader, log });

  return {
    url,
    metricsUrl: metricsServer?.url,
    server,
    connections,
    snapshots,
    encodings,
    get draining() {
      return drain.draining;
    },
    reload: (trigger = 'reload') => reloader.reload(trigger),
    close: (drainOptions = {}) => {
      watch.close();
      return shutdownGateway({ shutdown, drain, reloadsSettled: reloader.settled, metricsServer, limiter, cursorSecretShare, keyStore, snapshots }, drainOptions);
    },
  };
}

/** What serving a snapshot needs besides the snapshot's verification. */
interface PreparedServing {
  readonly snapshots: SnapshotHolder;
  readonly stores: GatewayStores;
  readonly metrics: GatewayMetrics | undefined;
  readonly encodings: EncodedBodies;
  readonly listener: RequestListener;
  /** The compression of the app's own shared-cacheable documents, started while the file is hashed. */
  readonly compressingEarly: Promise<PrepareReport | undefined>;
}

/** A settled promise's outcome, held without an unhandled rejection while the hash runs. */
type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then((value) => ({ ok: true, value }), (error: unknown) => ({ ok: false, error }));
}

/**
 * Opens the stores and builds the request listener over `snapshot`, which reads nothing from it: requests
 * acquire it from the holder, and none can arrive before the server listens. On failure it closes the stores
 * it opened; the snapshot is its caller's to close.
 */
async function prepareServing(snapshot: Snapshot, config: GatewayConfig, log: GatewayLog, context: { now: () => number; options: StartOptions; isDraining: () => boolean }): Promise<PreparedServing> {
  const { now, options } = context;
  const snapshots = new SnapshotHolder(snapshot);
  const stores = await openGatewayStores(config, log, now);
  try {
    const { keyStore, keyStorageScheme, cursorKeys, limiter } = stores;
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
      cursorKeys,
      log,
      metrics,
      isDraining: context.isDraining,
      cacheBytes: config.cacheBytes,
      routes: options.routes,
    }, { fastPath: options.fastPath });
    // The app's own documents (/openapi.json, /docs) read nothing from the file: their forms are made while
    // it is hashed, and the check that follows takes them over.
    const compressingEarly = encodings.prepare(snapshot, { snapshotIndependentOnly: true }).catch(() => undefined);
    return { snapshots, stores, metrics, encodings, listener, compressingEarly };
  } catch (error) {
    await closeStores(stores, log);
    throw error;
  }
}

/**
 * Closes the stores of a start that failed, within FAILED_START_CLOSE_MS: a store that does not answer (a
 * stalled Redis never acknowledges QUIT) must not hold the failure back.
 */
async function closeStores(stores: GatewayStores, log: GatewayLog): Promise<void> {
  // Side by side, so that one store that hangs does not keep the other open.
  const closing = Promise.allSettled([stores.cursorSecretShare?.close(), stores.limiter.close(), stores.keyStore.close()]).then((outcomes) => {
    for (const outcome of outcomes) if (outcome.status === 'rejected') log.error({ err: outcome.reason }, 'closing a store after a failed start failed');
  });
  await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, FAILED_START_CLOSE_MS).unref())]);
}
