/**
 * Key-store changes reach a running gateway on the very next request (the lookup is one synchronous
 * query per request on the shared WAL file): revocation by the CLI or the store, tier changes with
 * their limits, and a store that can no longer be read, which fails closed with 503.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openKeyStore } from '../../../gateway/keys/sqlite-key-store.ts';
import { keyStoreDdl } from '../../../gateway/keys/key-store-schema.ts';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { assertLimitHeaders, assertRateLimited, errorCode, steppedClock, type SteppedClock } from './limits-http-support.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';

describe('key-store changes over HTTP', () => {
  let clock: SteppedClock;
  let gateway: TestGateway;
  let keysFile: string;
  before(async () => {
    clock = steppedClock();
    gateway = await startTestGateway({ now: clock.now });
    keysFile = join(gateway.dir, 'keys.sqlite');
  });
  after(async () => {
    await gateway?.close();
  });
  beforeEach(() => clock.nextMinute(20_000));

  const setTier = (id: string, tier: 'trial' | 'nonprofit' | 'enterprise') => {
    const db = new Database(keysFile);
    try {
      assert.equal(db.prepare('UPDATE api_keys SET tier = ? WHERE id = ?').run(tier, id).changes, 1);
    } finally {
      db.close();
    }
  };
  const limitOf = async (key: string, where: string) => {
    const response = await gateway.get('/api/cities', { key });
    await response.arrayBuffer();
    return { status: response.status, ...assertLimitHeaders(response, clock.now(), where) };
  };

  it('a key revoked with `hra keys revoke` is refused on the next request', async () => {
    const { key } = await issue(keysFile, 'nonprofit');
    assert.equal((await gateway.get('/api/cities', { key: key.key })).status, 200);
    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', 'keys', 'revoke', '--keys', keysFile, key.id], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(cli.status, 0, cli.stderr);
    const refused = await gateway.get('/api/cities', { key: key.key });
    assert.equal(refused.status, 403);
    assert.equal(await errorCode(refused), 'API_KEY_REVOKED');
  });

  it('a key revoked through the key store by another process is refused on the next request', async () => {
    const { key } = await issue(keysFile, 'commercial');
    assert.equal((await gateway.get('/api/programs/alpha', { key: key.key })).status, 200);
    const store = openKeyStore(keysFile, { now: () => new Date() });
    await store.revokeKey(key.id);
    await store.close();
    const refused = await gateway.get('/api/programs/alpha', { key: key.key });
    assert.equal(refused.status, 403);
    assert.equal(await errorCode(refused), 'API_KEY_REVOKED');
    assert.doesNotMatch(await (await gateway.get('/api/programs/alpha', { key: key.key })).text(), /"programs"/);
  });

  it('a tier change switches the limit headers on the next request; counts carry over', async () => {
    const { key } = await issue(keysFile, 'nonprofit');
    for (let used = 1; used <= 100; used++) assert.equal((await limitOf(key.key, `nonprofit ${used}`)).remaining, 120 - used);
    setTier(key.id, 'enterprise');
    assert.deepEqual(await limitOf(key.key, 'now commercial'), expected(200, 600, 600 - 101));
    // Back down to nonprofit with 101 used: 19 left, then the 121st of the minute is a 429.
    setTier(key.id, 'nonprofit');
    assert.deepEqual(await limitOf(key.key, 'nonprofit again'), expected(200, 120, 120 - 102));
    for (let used = 103; used <= 120; used++) assert.equal((await limitOf(key.key, `nonprofit ${used}`)).status, 200);
    await assertRateLimited(await gateway.get('/api/cities', { key: key.key }));
    setTier(key.id, 'enterprise');
    assert.deepEqual(await limitOf(key.key, 'commercial after a 429'), expected(200, 600, 600 - 121));

    function expected(status: number, limit: number, remaining: number) {
      return { status, limit, remaining, reset: Math.ceil(clock.now() / 60_000) * 60, window: 'minute' };
    }
  });

  it('a row the store cannot trust (a tier it does not know) answers 503 AUTH_STORAGE_UNAVAILABLE, not 500', async () => {
    const { key } = await issue(keysFile, 'nonprofit');
    const db = new Database(keysFile);
    try {
      // Written around the CHECK constraint, as a damaged or hand-edited store might be.
      db.pragma('ignore_check_constraints = ON');
      db.prepare("UPDATE api_keys SET tier = 'platinum' WHERE id = ?").run(key.id);
      const response = await gateway.get('/api/programs/alpha', { key: key.key });
      assert.equal(response.status, 503);
      assert.equal(await errorCode(response), 'AUTH_STORAGE_UNAVAILABLE');
      assert.ok(Number(response.headers.get('Retry-After')) >= 1);
    } finally {
      db.prepare("UPDATE api_keys SET tier = 'nonprofit' WHERE id = ?").run(key.id);
      db.close();
    }
    assert.equal((await gateway.get('/api/programs/alpha', { key: key.key })).status, 200);
  });

  it('a key store whose table is gone answers 503 AUTH_STORAGE_UNAVAILABLE with Retry-After, never licensed data', async () => {
    const { key } = await issue(keysFile, 'commercial');
    assert.equal((await gateway.get('/api/cities', { key: key.key })).status, 200);
    const db = new Database(keysFile);
    const dump = db.prepare('SELECT * FROM api_keys').all() as Record<string, unknown>[];
    // Another process replaces the schema under the running gateway: its prepared lookup can no longer run.
    db.exec('DROP INDEX api_keys_rotated_from; DROP TABLE api_keys');
    try {
      for (const [path, withKey] of [['/api/cities', key.key], ['/api/programs/alpha', gateway.keys.trial], ['/api/changes?since=2026-01-01', gateway.keys.commercial]] as const) {
        const response = await gateway.get(path, { key: withKey });
        const body = await response.text();
        assert.equal(response.status, 503, `${path}: ${body}`);
        assert.equal((JSON.parse(body) as ApiErrorBody).code, 'AUTH_STORAGE_UNAVAILABLE', path);
        assert.ok(Number(response.headers.get('Retry-After')) >= 1, path);
        assert.equal(response.headers.get('X-Dataset-Revision'), null, path);
        assert.doesNotMatch(body, /"programs"|"cities"|datasetRevision|"changes"/, path);
      }
      // Keyless requests need no key store and keep answering.
      assert.equal((await gateway.get('/api/sample')).status, 200);
    } finally {
      // Put the table back: the same gateway recovers without a restart.
      db.exec(keyStoreDdl);
      const insert = db.prepare(`INSERT INTO api_keys (${Object.keys(dump[0]!).join(', ')}) VALUES (${Object.keys(dump[0]!).map((c) => `@${c}`).join(', ')})`);
      for (const row of dump) insert.run(row);
      db.close();
    }
    // The gateway reopens a rewritten file at its next file check (at most every 250 ms), not mid-interval:
    // recovery is bounded by that check, well within the 1 s the store promises.
    let status = 0;
    for (const started = Date.now(); Date.now() - started < 1000; await new Promise((resolve) => setTimeout(resolve, 25))) {
      status = (await gateway.get('/api/cities', { key: key.key })).status;
      if (status === 200) break;
    }
    assert.equal(status, 200, 'recovered without a restart within 1 s');
  });
});

async function issue(keysFile: string, tier: 'nonprofit' | 'commercial') {
  const store = openKeyStore(keysFile, { now: () => new Date() });
  try {
    return { key: await store.createKey({ tier }) };
  } finally {
    await store.close();
  }
}
