/**
 * Starts the real gateway for integration tests: a snapshot built from a real corpus, a real SQLite key
 * store with one key of every kind, the real HTTP server on an ephemeral loopback port.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { buildAndPublish } from '../../build/snapshot/publish-snapshot.ts';
import { parseGatewayConfig } from '../../gateway/config/parse-gateway-config.ts';
import { openKeyStore } from '../../gateway/keys/sqlite-key-store.ts';
import { createGatewayLogger, type GatewayLogger } from '../../gateway/observability/gateway-logger.ts';
import type { RouteTable } from '../../gateway/routes/route-entry.ts';
import { startGateway, type RunningGateway } from '../../gateway/start-gateway.ts';
import { makeTempDir } from './temp-dir.ts';

/** The corpus every integration test serves unless told otherwise. */
export const MINI_CORPUS = 'test/fixtures/mini-corpus';

/** Plaintext keys of every kind, issued into the test's key store. */
export interface TestKeys {
  commercial: string;
  nonprofit: string;
  /** Trial key allowed `alpha` and `beta`. */
  trial: string;
  revoked: string;
  expired: string;
}

/** A running test gateway with helpers to call it. */
export interface TestGateway {
  url: string;
  gateway: RunningGateway;
  keys: TestKeys;
  keyIds: Record<keyof TestKeys, string>;
  snapshotFile: string;
  dir: string;
  /** GET `path` with an optional key and extra headers. */
  get(path: string, options?: { key?: string; headers?: Record<string, string>; method?: string }): Promise<Response>;
  close(): Promise<void>;
}

const builtSnapshots = new Map<string, string>();

/** Builds `corpus` once per test process and returns the snapshot file. */
export function buildTestSnapshot(corpus: string = MINI_CORPUS): string {
  const cached = builtSnapshots.get(corpus);
  if (cached) return cached;
  const out = makeTempDir('hra-snapshot-');
  const published = buildAndPublish(loadCorpus(corpus), out);
  builtSnapshots.set(corpus, published.file);
  process.on('exit', () => rmSync(out, { recursive: true, force: true }));
  return published.file;
}

/** Options of startTestGateway. */
export interface TestGatewayOptions {
  corpus?: string;
  /** Overrides of gateway flags, as `hra serve` would receive them (e.g. `{ redis: url, limits: file }`). */
  flags?: Record<string, unknown>;
  now?: () => number;
  /** A limits override (the `--limits` file's JSON), written to the test's folder. */
  limits?: unknown;
  /** Where the gateway logs; silent unless a test captures the lines. */
  log?: GatewayLogger;
  /** The routes to serve: the route table unless told (a copy with a route deprecated, say). */
  routes?: RouteTable;
}

/** Limits high enough that tests issuing many requests are never throttled (every request still metered). */
export const GENEROUS_LIMITS = {
  tiers: { trial: { perMinute: 1_000_000, perDay: 10_000_000 }, nonprofit: { perMinute: 1_000_000, perDay: 10_000_000 }, commercial: { perMinute: 1_000_000, perDay: 10_000_000 } },
  public: { perMinute: 1_000_000 },
};

/** Starts a gateway on 127.0.0.1:0 over a freshly issued key store. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const snapshotFile = buildTestSnapshot(options.corpus);
  const dir = makeTempDir('hra-gateway-');
  const keysFile = join(dir, 'keys.sqlite');
  const store = openKeyStore(keysFile, { now: () => new Date() });
  const issue = (request: Parameters<typeof store.createKey>[0]) => store.createKey(request);
  const commercial = await issue({ tier: 'commercial', label: 'test commercial' });
  const nonprofit = await issue({ tier: 'nonprofit' });
  const trial = await issue({ tier: 'trial', cities: ['alpha', 'beta'], days: 30 });
  const revoked = await issue({ tier: 'commercial' });
  await store.revokeKey(revoked.id);
  const expired = await issue({ tier: 'trial', cities: ['alpha'], expiresAt: new Date(Date.now() - 60_000) });
  await store.close();

  const flags: Record<string, unknown> = { dataset: snapshotFile, keys: keysFile, port: '0', host: '127.0.0.1', ...options.flags };
  if (options.limits !== undefined) {
    flags.limits = join(dir, 'limits.json');
    writeFileSync(flags.limits as string, JSON.stringify(options.limits));
  }
  const config = parseGatewayConfig(flags, {});
  const gateway = await startGateway(config, options.log ?? createGatewayLogger({ level: 'silent' }), { now: options.now, routes: options.routes });
  return {
    url: gateway.url,
    gateway,
    keys: { commercial: commercial.key, nonprofit: nonprofit.key, trial: trial.key, revoked: revoked.key, expired: expired.key },
    keyIds: { commercial: commercial.id, nonprofit: nonprofit.id, trial: trial.id, revoked: revoked.id, expired: expired.id },
    snapshotFile,
    dir,
    get(path, { key, headers = {}, method = 'GET' } = {}) {
      return fetch(`${gateway.url}${path}`, { method, headers: { ...(key === undefined ? {} : { 'X-Api-Key': key }), ...headers } });
    },
    async close() {
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
