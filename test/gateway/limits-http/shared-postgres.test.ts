/**
 * Several gateway hosts as one (issue 14): two real `hra serve` processes on one PostgreSQL key store and
 * one Redis. They enforce one combined limit; a revocation, a rotation or a tier change made on the store
 * is obeyed by both within 1 s (asserted with slack: 1.5 s from the `hra keys` exit); a change-feed cursor
 * issued by one pages on the other without `--cursor-secret`; PostgreSQL stopped means 503
 * AUTH_STORAGE_UNAVAILABLE on both while public routes serve, and its return means 200 with no restart.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import pg from 'pg';
import { DEFAULT_LIMITS } from '../../../gateway/limits/limit-table.ts';
import { openKeyStoreAt } from '../../../gateway/keys/key-store-url.ts';
import { postgresServerSkip, startPostgresServer, type PostgresServer } from '../../support/postgres-server.ts';
import { redisServerSkip, startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { serve, stopServe, type ServeProcess } from '../../support/serve-process.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';
import { assertLimitHeaders, assertRateLimited } from './limits-http-support.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

// The bound is 1 s; the slack is for a loaded two-core machine. Measured figures are printed.
const PROPAGATION_BOUND_MS = 1500;
const FAIL_CLOSED_BOUND_MS = 500;
const DAY_QUOTA = 9;
// Nonprofit keys carry the combined-limit case; commercial keys keep their default limits, and the
// refusals of polling loops are metered per address, so the public limit is raised out of the way.
const LIMITS = { tiers: { nonprofit: { perMinute: 10_000, perDay: DAY_QUOTA } }, public: { perMinute: 1_000_000, perDay: 10_000_000 } };

const skip = postgresServerSkip() || redisServerSkip();
if (skip) console.log(`# skipping the shared PostgreSQL gateway tests: ${skip}`);

interface KeysRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** performance.now() when the command exited. */
  exitedAt: number;
}

/** Runs `hra keys ...` against `url` as an operator would. */
function hraKeys(url: string, ...args: string[]): Promise<KeysRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', 'keys', ...args, '--keys', url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr, exitedAt: performance.now() })));
}

function lastJson(run: KeysRun): Record<string, unknown> {
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout.trimEnd().split('\n').at(-1) ?? '') as Record<string, unknown>;
}

function quantiles(samples: number[]): { median: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { median: at(0.5), p99: at(0.99), max: at(1) };
}

describe('two gateways on one PostgreSQL key store and one Redis', { skip }, () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let url: string;
  let dir: string;
  const gateways: ServeProcess[] = [];
  const get = (gateway: ServeProcess, path: string, key?: string) =>
    fetch(`${gateway.url}${path}`, { headers: key === undefined ? {} : { 'X-Api-Key': key } });
  const status = async (gateway: ServeProcess, key: string) => {
    const response = await get(gateway, '/api/cities', key);
    await response.arrayBuffer();
    return response.status;
  };
  /** Polls both gateways until `accept` holds for each; returns the milliseconds from `since`. */
  const untilBoth = async (since: number, accept: (response: Response) => boolean, key: string, what: string): Promise<number> => {
    const pending = new Set(gateways);
    while (pending.size > 0) {
      for (const gateway of [...pending]) {
        const response = await get(gateway, '/api/cities', key);
        if (accept(response)) pending.delete(gateway);
        await response.arrayBuffer();
      }
      const elapsed = performance.now() - since;
      assert.ok(pending.size === 0 || elapsed < PROPAGATION_BOUND_MS, `${what}: not obeyed by every gateway after ${elapsed.toFixed(0)} ms`);
      if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return performance.now() - since;
  };

  before(async () => {
    [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
    url = await postgres.createDatabase();
    dir = makeTempDir('hra-shared-pg-');
    const limitsFile = join(dir, 'limits.json');
    writeFileSync(limitsFile, JSON.stringify(LIMITS));
    // The first `hra keys` run creates the schema; the gateways then find it.
    lastJson(await hraKeys(url, 'list', '--json'));
    const args = ['--dataset', buildTestSnapshot(), '--keys', url, '--port', '0', '--host', '127.0.0.1', '--redis', redis.url, '--limits', limitsFile];
    gateways.push(...(await Promise.all([serve(args), serve(args)])));
  });
  after(async () => {
    await Promise.all(gateways.map(stopServe));
    await postgres?.stop();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`enforce one day window of ${DAY_QUOTA} for a key, alternating between them`, async () => {
    const key = String(lastJson(await hraKeys(url, 'create', '--tier', 'nonprofit', '--json')).key);
    const toMidnight = 86_400_000 - (Date.now() % 86_400_000);
    if (toMidnight < 5_000) await new Promise((resolve) => setTimeout(resolve, toMidnight + 100));
    for (let used = 1; used <= DAY_QUOTA; used++) {
      const sent = Date.now();
      const response = await get(gateways[used % 2]!, '/api/cities', key);
      assert.equal(response.status, 200, `request ${used}`);
      await response.arrayBuffer();
      const headers = assertLimitHeaders(response, [sent, Date.now()], `request ${used}`);
      assert.deepEqual([headers.window, headers.limit, headers.remaining], ['day', DAY_QUOTA, DAY_QUOTA - used], `request ${used}`);
    }
    for (const gateway of gateways) await assertRateLimited(await get(gateway, '/api/cities', key), 'over quota');
  });

  it('refuse a key revoked with hra keys within the bound, on both', async (t: TestContext) => {
    const created = lastJson(await hraKeys(url, 'create', '--tier', 'commercial', '--json'));
    const key = String(created.key);
    for (const gateway of gateways) assert.equal(await status(gateway, key), 200);
    const revoked = await hraKeys(url, 'revoke', String(created.id));
    assert.equal(revoked.status, 0, revoked.stderr);
    const ms = await untilBoth(revoked.exitedAt, (response) => response.status === 403, key, 'revocation');
    t.diagnostic(`hra keys revoke exit -> refused by both gateways: ${ms.toFixed(0)} ms`);
  });

  it('refuse each of 20 revoked keys within the bound, on both (median and max reported)', async (t: TestContext) => {
    const store = (await openKeyStoreAt(url, { now: () => new Date(), role: 'cli' })).store;
    try {
      const samples: number[] = [];
      for (let i = 0; i < 20; i++) {
        const issued = await store.createKey({ tier: 'commercial' });
        // Cached on both first: the case that needs invalidation.
        for (const gateway of gateways) assert.equal(await status(gateway, issued.key), 200);
        await store.revokeKey(issued.id);
        samples.push(await untilBoth(performance.now(), (response) => response.status === 403, issued.key, `revocation ${i + 1}`));
      }
      const { median, max } = quantiles(samples);
      t.diagnostic(`revocation committed -> refused by both gateways, n=20: median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
    } finally {
      await store.close();
    }
  });

  it('refuse a rotated key and accept its successor, on both', async (t: TestContext) => {
    const created = lastJson(await hraKeys(url, 'create', '--tier', 'commercial', '--json'));
    for (const gateway of gateways) assert.equal(await status(gateway, String(created.key)), 200);
    const rotated = await hraKeys(url, 'rotate', String(created.id), '--json');
    const successor = String(lastJson(rotated).key);
    const ms = await untilBoth(rotated.exitedAt, (response) => response.status === 403, String(created.key), 'rotation');
    for (const gateway of gateways) assert.equal(await status(gateway, successor), 200);
    t.diagnostic(`hra keys rotate exit -> old key refused by both gateways: ${ms.toFixed(0)} ms`);
  });

  it('apply a tier change made in the store to the limits of both', async (t: TestContext) => {
    const created = lastJson(await hraKeys(url, 'create', '--tier', 'nonprofit', '--json'));
    const key = String(created.key);
    for (const gateway of gateways) assert.equal((await get(gateway, '/api/cities', key)).headers.get('X-RateLimit-Limit'), String(DAY_QUOTA));
    // No `hra keys` command changes a tier; support does it in SQL, and the store's trigger announces it.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`UPDATE api_keys SET tier = 'enterprise' WHERE id = $1`, [created.id]);
    const changedAt = performance.now();
    await client.end();
    const commercialLimit = String(DEFAULT_LIMITS.tiers.commercial.perMinute);
    const ms = await untilBoth(changedAt, (response) => response.headers.get('X-RateLimit-Limit') === commercialLimit, key, 'tier change');
    t.diagnostic(`tier change committed -> commercial limits on both gateways: ${ms.toFixed(0)} ms`);
  });

  it('page the change feed on one gateway with a cursor issued by the other', async () => {
    const key = String(lastJson(await hraKeys(url, 'create', '--tier', 'commercial', '--json')).key);
    const first = await get(gateways[0]!, '/api/changes?since=2026-01-01&limit=1', key);
    assert.equal(first.status, 200);
    const page = (await first.json()) as { nextCursor: string | null; hasMore: boolean };
    assert.ok(page.hasMore && page.nextCursor !== null, 'the first page has a cursor');
    const second = await get(gateways[1]!, `/api/changes?since=2026-01-01&limit=1&cursor=${encodeURIComponent(page.nextCursor)}`, key);
    assert.equal(second.status, 200, await second.clone().text());
  });

  it('answer 503 AUTH_STORAGE_UNAVAILABLE within the bound while PostgreSQL is down, then 200 once it is back', async (t: TestContext) => {
    const key = String(lastJson(await hraKeys(url, 'create', '--tier', 'commercial', '--json')).key);
    for (const gateway of gateways) assert.equal(await status(gateway, key), 200);
    await postgres.kill();
    const killedAt = performance.now();
    // The cached key stops working once the gateways notice (its connection closes at once on a stop).
    await untilBoth(killedAt, (response) => response.status === 503, key, 'PostgreSQL stopped');
    const latencies: number[] = [];
    for (let i = 0; i < 40; i++) {
      const gateway = gateways[i % 2]!;
      const started = performance.now();
      const response = await get(gateway, '/api/cities', key);
      const body = await response.text();
      latencies.push(performance.now() - started);
      assert.equal(response.status, 503, body);
      assert.equal((JSON.parse(body) as ApiErrorBody).code, 'AUTH_STORAGE_UNAVAILABLE');
      assert.ok(response.headers.get('Retry-After') !== null, 'Retry-After');
      assert.doesNotMatch(body, /"cities"|datasetRevision/);
    }
    const { median, p99, max } = quantiles(latencies);
    t.diagnostic(`503 while PostgreSQL is down, n=40: median ${median.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
    assert.ok(max < FAIL_CLOSED_BOUND_MS, `every 503 within ${FAIL_CLOSED_BOUND_MS} ms, slowest ${max.toFixed(0)} ms`);
    for (const gateway of gateways) {
      const response = await get(gateway, '/api/sample');
      assert.equal(response.status, 200, 'public routes keep serving');
      await response.arrayBuffer();
    }
    await postgres.start();
    const restartedAt = performance.now();
    // Reconnection is retried every 250 ms; give the restarted server the same slack as a change.
    await untilBoth(restartedAt, (response) => response.status === 200, key, 'PostgreSQL back');
  });
});
