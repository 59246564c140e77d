/**
 * What the key table's trigger cannot announce (issue 21 item 5), with two real `hra serve` processes on
 * one private PostgreSQL: a TRUNCATE with triggers off, a `pg_dump -t api_keys --clean` restored with
 * `psql -f` (drop, create, COPY, trigger re-created: no NOTIFY), a table renamed into place and
 * `DROP TABLE api_keys CASCADE` each empty both gateways' caches within 1 s (asserted with slack for a
 * loaded machine: 1.5 s); a row changed with triggers off in one transaction is obeyed within 10 s; a
 * dropped table fails closed, and restoring it serves again with no restart. Figures are printed.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import pg from 'pg';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';
import { openKeyStoreAt } from '../../../gateway/keys/key-store-url.ts';
import type { KeyStore } from '../../../gateway/keys/key-store.ts';
import { findPostgresBin, postgresServerSkip, startPostgresServer, type PostgresServer } from '../../support/postgres-server.ts';
import { serve, stopServe, type ServeProcess } from '../../support/serve-process.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

// The issue's bounds are 1 s and 10 s; the slack is for a loaded two-core machine.
const TABLE_BOUND_MS = 1500;
const ROW_BOUND_MS = 10_000;

const skip = postgresServerSkip();

describe('two gateways whose api_keys table changes behind its trigger', { skip }, () => {
  let postgres: PostgresServer;
  let url: string;
  let dir: string;
  let store: KeyStore;
  let sqlClient: pg.Client;
  const gateways: ServeProcess[] = [];

  const statusOf = async (gateway: ServeProcess, key: string) => {
    const response = await fetch(`${gateway.url}/api/cities`, { headers: { 'X-Api-Key': key } });
    const body = await response.text();
    return { status: response.status, code: response.status === 200 ? undefined : (JSON.parse(body) as ApiErrorBody).code };
  };
  /** Makes `key` a cached hit on both gateways, so that what follows tests the cache, not a fresh read. */
  const warm = async (key: string) => {
    // A row read while the table's identity is newer than the last probe is used once, not cached: let one
    // probe (every 250 ms) see the table of the previous case first.
    await new Promise((resolve) => setTimeout(resolve, 400));
    for (const gateway of gateways) {
      // A miss waits at most 50 ms for PostgreSQL (503 past it, on a loaded machine); the answer after a 200 is a hit.
      const deadline = performance.now() + 5_000;
      while ((await statusOf(gateway, key)).status !== 200) assert.ok(performance.now() < deadline, 'the key never served');
      assert.equal((await statusOf(gateway, key)).status, 200);
    }
  };
  /** Polls both gateways until `accept` holds for each, failing past `boundMs`; returns the milliseconds taken. */
  const untilBoth = async (since: number, key: string, accept: (answer: { status: number; code: string | undefined }) => boolean, boundMs: number, what: string) => {
    const pending = new Set(gateways);
    while (pending.size > 0) {
      for (const gateway of [...pending]) if (accept(await statusOf(gateway, key))) pending.delete(gateway);
      const elapsed = performance.now() - since;
      assert.ok(pending.size === 0 || elapsed < boundMs, `${what}: not obeyed by every gateway after ${elapsed.toFixed(0)} ms`);
      if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return performance.now() - since;
  };
  const refusedAsUnknown = (answer: { status: number; code: string | undefined }) => answer.status === 401 && answer.code === 'INVALID_API_KEY';
  const issue = () => store.createKey({ tier: 'commercial' });
  const newKey = async () => (await issue()).key;
  const postgresTool = (tool: 'pg_dump' | 'psql', args: string[]) => {
    const run = spawnSync(join(findPostgresBin() ?? '', tool), [...args, '--dbname', url], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return run;
  };

  before(async () => {
    postgres = await startPostgresServer();
    url = await postgres.createDatabase();
    dir = makeTempDir('hra-pg-table-');
    // The CLI's role creates the schema; the gateways then find it.
    store = (await openKeyStoreAt(url, { now: () => new Date(), role: 'cli' })).store;
    sqlClient = new pg.Client({ connectionString: url });
    await sqlClient.connect();
    const args = ['--dataset', buildTestSnapshot(), '--keys', url, '--port', '0', '--host', '127.0.0.1'];
    // One after the other, each kept as soon as it listens, so that `after` stops whichever started.
    for (let i = 0; i < 2; i++) gateways.push(await serve(args));
  });
  after(async () => {
    await Promise.all(gateways.map(stopServe));
    await sqlClient?.end();
    await store?.close();
    await postgres?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a TRUNCATE with the trigger disabled refuses a cached key within 1 s', async (t: TestContext) => {
    const key = await newKey();
    await warm(key);
    await sqlClient.query('BEGIN; ALTER TABLE api_keys DISABLE TRIGGER ALL; TRUNCATE api_keys; ALTER TABLE api_keys ENABLE TRIGGER ALL; COMMIT');
    const ms = await untilBoth(performance.now(), key, refusedAsUnknown, TABLE_BOUND_MS, 'truncate');
    t.diagnostic(`TRUNCATE (trigger off) committed -> 401 on both gateways: ${ms.toFixed(0)} ms`);
  });

  it('a pg_dump --clean taken before a key existed, restored with psql -f, refuses that key within 1 s and keeps the others', async (t: TestContext) => {
    const kept = await newKey();
    const dump = join(dir, 'api_keys.sql');
    postgresTool('pg_dump', ['-t', 'api_keys', '--clean', '--file', dump]);
    const later = await newKey();
    await warm(kept);
    await warm(later);
    postgresTool('psql', ['-q', '-f', dump]);
    const ms = await untilBoth(performance.now(), later, refusedAsUnknown, TABLE_BOUND_MS, 'restore');
    t.diagnostic(`psql -f restore exit -> key absent from the dump refused by both gateways: ${ms.toFixed(0)} ms`);
    for (const gateway of gateways) assert.equal((await statusOf(gateway, kept)).status, 200, 'a key in the dump still serves');
  });

  it('a table renamed into place under the same name refuses a key it lacks within 1 s', async (t: TestContext) => {
    const kept = await newKey();
    const dropped = await issue();
    await warm(kept);
    await warm(dropped.key);
    await sqlClient.query('CREATE TABLE api_keys_next (LIKE api_keys INCLUDING ALL)');
    await sqlClient.query('INSERT INTO api_keys_next SELECT * FROM api_keys WHERE id <> $1', [dropped.id]);
    await sqlClient.query('BEGIN; ALTER TABLE api_keys RENAME TO api_keys_replaced; ALTER TABLE api_keys_next RENAME TO api_keys; COMMIT');
    const ms = await untilBoth(performance.now(), dropped.key, refusedAsUnknown, TABLE_BOUND_MS, 'replaced table');
    t.diagnostic(`table renamed into place -> key it lacks refused by both gateways: ${ms.toFixed(0)} ms`);
    for (const gateway of gateways) assert.equal((await statusOf(gateway, kept)).status, 200, 'a key in the new table still serves');
    // Back to the migrated table (with its trigger), for the cases that follow.
    await sqlClient.query('BEGIN; DROP TABLE api_keys; ALTER TABLE api_keys_replaced RENAME TO api_keys; COMMIT');
  });

  it('a revocation written with the trigger off, in one transaction, is obeyed within 10 s', async (t: TestContext) => {
    const { key, id } = await issue();
    await warm(key);
    await sqlClient.query('BEGIN; ALTER TABLE api_keys DISABLE TRIGGER ALL');
    await sqlClient.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2', [new Date().toISOString(), id]);
    await sqlClient.query('ALTER TABLE api_keys ENABLE TRIGGER ALL; COMMIT');
    const ms = await untilBoth(performance.now(), key, (answer) => answer.status === 403 && answer.code === 'API_KEY_REVOKED', ROW_BOUND_MS, 'silent revocation');
    t.diagnostic(`revocation with the trigger off committed -> 403 on both gateways: ${ms.toFixed(0)} ms`);
  });

  it('DROP TABLE api_keys CASCADE fails closed within 1 s, and restoring the table serves again with no restart', async (t: TestContext) => {
    const key = await newKey();
    const dump = join(dir, 'before-drop.sql');
    postgresTool('pg_dump', ['-t', 'api_keys', '--clean', '--file', dump]);
    await warm(key);
    await sqlClient.query('DROP TABLE api_keys CASCADE');
    const failed = await untilBoth(performance.now(), key, (answer) => answer.status === 503 && answer.code === 'AUTH_STORAGE_UNAVAILABLE', TABLE_BOUND_MS, 'dropped table');
    t.diagnostic(`DROP TABLE committed -> 503 on both gateways: ${failed.toFixed(0)} ms`);
    // Never a cached key while the table is gone.
    for (let i = 0; i < 10; i++) for (const gateway of gateways) assert.equal((await statusOf(gateway, key)).status, 503);
    const restoring = performance.now();
    postgresTool('psql', ['-q', '-f', dump]);
    const back = await untilBoth(restoring, key, (answer) => answer.status === 200, TABLE_BOUND_MS, 'restored table');
    t.diagnostic(`psql -f restore started -> 200 again on both gateways: ${back.toFixed(0)} ms`);
  });
});
