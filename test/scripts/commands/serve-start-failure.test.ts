/**
 * `hra serve` that cannot listen (a busy `--port`) ends, whatever stores it had opened: for every pair of
 * key store (SQLite, PostgreSQL) and limit storage (memory, Redis), the real CLI prints one `hra:` line and
 * exits 1. The contract's bound is 1 s from that line; the assertion allows 5 s for a loaded two-core
 * machine and the measured figures are printed.
 */
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openKeyStoreAt } from '../../../gateway/keys/key-store-url.ts';
import { postgresServerSkip, startPostgresServer, type PostgresServer } from '../../support/postgres-server.ts';
import { redisServerSkip, startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { spawnHra, stderrLines } from '../../support/run-hra.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const EXIT_BOUND_MS = 5_000;
/** A serve that prints no line is killed after this, one that prints it but stays after EXIT_BOUND_MS more: the test fails rather than hangs. */
const KILL_AFTER_MS = 60_000;

const skip = postgresServerSkip() || redisServerSkip();
if (skip) console.log(`# skipping the start-failure tests with shared stores: ${skip}`);

interface FailedServe {
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Milliseconds from the `hra:` line reaching stderr to the process's exit (NaN without such a line). */
  exitAfterLineMs: number;
}

/** Runs `hra serve <args>` and waits for it to end, killing it after KILL_AFTER_MS. */
function failedServe(args: string[]): Promise<FailedServe> {
  const child = spawnHra(['serve', ...args], { env: { HRA_LOG_LEVEL: 'silent' } });
  let stderr = '';
  let lineAt = Number.NaN;
  child.stdout?.resume();
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (Number.isNaN(lineAt) && /^hra: /m.test(stderr)) {
      lineAt = performance.now();
      setTimeout(() => child.kill('SIGKILL'), EXIT_BOUND_MS + 1_000).unref();
    }
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
  return new Promise((resolve) => child.once('exit', (status, signal) => {
    const exitedAt = performance.now();
    clearTimeout(killer);
    resolve({ status, signal, stderr, exitAfterLineMs: exitedAt - lineAt });
  }));
}

describe('hra serve on a busy port', { skip }, () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let busy: Server;
  let port: number;
  let dir: string;
  let sqliteKeys: string;
  let postgresKeys: string;
  const measured: string[] = [];

  before(async () => {
    [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
    dir = makeTempDir('hra-serve-failure-');
    sqliteKeys = join(dir, 'keys.sqlite');
    postgresKeys = await postgres.createDatabase();
    // The CLI's role creates either store, as `hra keys create` would; the gateway then finds it.
    for (const keys of [sqliteKeys, postgresKeys]) await (await openKeyStoreAt(keys, { now: () => new Date(), role: 'cli', create: true })).store.close();
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    port = (busy.address() as AddressInfo).port;
  });
  after(async () => {
    console.log(`# exit after the hra: line (bound 1000 ms): ${measured.join(', ')}`);
    busy?.close();
    await postgres?.stop();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const cases: Array<{ keys: 'sqlite' | 'postgres'; limits: 'memory' | 'redis' }> = [
    { keys: 'sqlite', limits: 'memory' },
    { keys: 'sqlite', limits: 'redis' },
    { keys: 'postgres', limits: 'memory' },
    { keys: 'postgres', limits: 'redis' },
  ];
  for (const { keys, limits } of cases) {
    it(`keys ${keys}, limits ${limits}: one line, exit 1, soon`, async () => {
      const args = ['--dataset', buildTestSnapshot(), '--keys', keys === 'sqlite' ? sqliteKeys : postgresKeys, '--port', String(port), '--host', '127.0.0.1'];
      if (limits === 'redis') args.push('--redis', redis.url);
      const run = await failedServe(args);
      measured.push(`${keys}+${limits} ${Math.round(run.exitAfterLineMs)} ms`);
      assert.equal(run.signal, null, `killed: it never exited\n${run.stderr}`);
      assert.equal(run.status, 1, run.stderr);
      assert.deepEqual(stderrLines({ status: run.status, signal: null, stdout: '', stderr: run.stderr }), [`hra: --port ${port}: already in use on 127.0.0.1`]);
      assert.ok(run.exitAfterLineMs <= EXIT_BOUND_MS, `exited ${Math.round(run.exitAfterLineMs)} ms after its line`);
    });
  }
});
