/**
 * Graceful shutdown of a started gateway: abandons a reload in progress, drains the listener (readiness
 * fails, in-flight requests complete with `Connection: close`), then releases every resource in turn.
 */
import type { CursorSecretShare } from '../changes/share-cursor-secret-through-redis.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { MetricsServer } from '../observability/metrics-server.ts';
import type { KeyStore } from '../keys/key-store.ts';
import type { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import type { DrainOptions, DrainOutcome, ServerDrain } from './drain-server.ts';

// In-process callers (tests) close idle keep-alive sockets at once; `hra serve` passes a grace.
const DEFAULT_DRAIN: DrainOptions = { idleGraceMs: 0, deadlineMs: 10_000 };

/** What a gateway holds open, in the order it is released after the drain. */
export interface GatewayResources {
  /** Aborting it makes a reload in progress give up instead of swapping. */
  readonly shutdown: AbortController;
  readonly drain: ServerDrain;
  /** Resolves once the reloads asked for before shutdown have finished. */
  readonly reloadsSettled: () => Promise<unknown>;
  readonly metricsServer: MetricsServer | undefined;
  readonly limiter: RateLimiter;
  readonly cursorSecretShare: CursorSecretShare | undefined;
  readonly keyStore: KeyStore;
  readonly snapshots: SnapshotHolder;
}

/** Shuts the gateway down; resolves with how the drain ended. */
export async function shutdownGateway(resources: GatewayResources, drainOptions: Partial<DrainOptions> = {}): Promise<DrainOutcome> {
  resources.shutdown.abort();
  const outcome = await resources.drain.drain({ ...DEFAULT_DRAIN, ...drainOptions });
  await resources.reloadsSettled();
  await resources.metricsServer?.close();
  await resources.cursorSecretShare?.close();
  await resources.limiter.close();
  await resources.keyStore.close();
  resources.snapshots.close();
  return outcome;
}
