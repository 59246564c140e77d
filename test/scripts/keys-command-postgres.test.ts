/**
 * Every `hra keys` command against a PostgreSQL key store (`--keys postgres://...`, or `HRA_KEYS`), on a
 * real cluster started by this file: the same output contract as with the SQLite file.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { openKeyStoreAt } from '../../gateway/keys/key-store-url.ts';
import { postgresServerSkip, startPostgresServer, type PostgresServer } from '../support/postgres-server.ts';
import { buildTestSnapshot } from '../support/start-test-gateway.ts';

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const skip = postgresServerSkip();
if (skip) console.log(`# skipping hra keys against PostgreSQL: ${skip}`);

function hra(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', 'keys', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

function lastJson(run: Run): Record<string, unknown> {
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout.trimEnd().split('\n').at(-1) ?? '') as Record<string, unknown>;
}

describe('hra keys against PostgreSQL', { skip }, () => {
  let postgres: PostgresServer;
  let url = '';
  // Trial cities are checked against a dataset's live cities: the mini corpus's (alpha, beta, gamma).
  let dataset = '';
  const keys = (...args: string[]) => hra({ HRA_DATASET: dataset }, ...args, '--keys', url);
  const lookup = async (key: unknown): Promise<string> => {
    const { store } = await openKeyStoreAt(url, { now: () => new Date(), role: 'cli' });
    try {
      return (await store.lookupKey(String(key))).kind;
    } finally {
      await store.close();
    }
  };
  before(async () => {
    postgres = await startPostgresServer();
    url = await postgres.createDatabase();
    dataset = buildTestSnapshot();
  });
  after(async () => postgres?.stop());

  it('creates keys (migrating an empty database) and prints each once as JSON', async () => {
    const trial = lastJson(await keys('create', '--tier', 'trial', '--cities', 'alpha,beta', '--days', '7', '--json'));
    assert.deepEqual(Object.keys(trial), ['ok', 'id', 'key', 'tier', 'expiresAt', 'cities']);
    assert.deepEqual(trial.cities, ['alpha', 'beta']);
    assert.equal(await lookup(trial.key), 'valid');
    const commercial = lastJson(await keys('create', '--tier', 'commercial', '--label', 'acme', '--json'));
    assert.deepEqual({ ...commercial, id: null, key: null }, { ok: true, id: null, key: null, tier: 'commercial', expiresAt: null, cities: [] });
    const expired = lastJson(await keys('create', '--tier', 'trial', '--cities', 'alpha', '--expires-at', '2020-01-01T00:00:00Z', '--json'));
    assert.equal(await lookup(expired.key), 'expired');
  });

  it('reads the store from HRA_KEYS when --keys is not given', async () => {
    const created = lastJson(await hra({ HRA_KEYS: url }, 'create', '--tier', 'nonprofit', '--json'));
    assert.equal(await lookup(created.key), 'valid');
  });

  it('rotates: the old key stops, the new one is printed once', async () => {
    const old = lastJson(await keys('create', '--tier', 'nonprofit', '--json'));
    const next = lastJson(await keys('rotate', String(old.id), '--json'));
    assert.equal(next.rotatedFrom, old.id);
    assert.equal(await lookup(old.key), 'revoked');
    assert.equal(await lookup(next.key), 'valid');
  });

  it('revokes, then lists every key without secrets', async () => {
    const created = lastJson(await keys('create', '--tier', 'nonprofit', '--json'));
    const revoked = lastJson(await keys('revoke', String(created.id), '--json'));
    assert.deepEqual(Object.keys(revoked), ['ok', 'id', 'revokedAt', 'alreadyRevoked']);
    assert.equal(await lookup(created.key), 'revoked');
    assert.match((await keys('revoke', String(created.id))).stdout, new RegExp(`^already revoked ${created.id} at `));
    const list = await keys('list', '--json');
    const listed = lastJson(list).keys as Array<Record<string, unknown>>;
    assert.ok(listed.some((key) => key.id === created.id && key.status === 'revoked'));
    assert.doesNotMatch(list.stdout, /hra_[tnc]_|[0-9a-f]{64}/);
  });

  it('refuses an unknown id and a policy breach with one stderr line', async () => {
    const unknown = await keys('rotate', 'key_000000000000', '--json');
    assert.equal(unknown.status, 1);
    assert.equal(unknown.stderr, 'hra: no key with id "key_000000000000"\n');
    const policy = await keys('create', '--tier', 'trial', '--cities', 'alpha', '--days', '31', '--json');
    assert.equal(policy.status, 1);
    assert.match(policy.stderr, /^hra: trial key lifetime must be at most 30 days, got 31 days\n$/);
  });

  it('reports an unreachable server on one line, without the password', async () => {
    const run = await hra({}, 'list', '--keys', `postgres://hra:hunter2@127.0.0.1:1/nothing`, '--json');
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /^hra: --keys: key store unavailable while opening postgres:\/\/hra:\*\*\*@127\.0\.0\.1:1\/nothing: .*\n$/);
    assert.doesNotMatch(run.stderr, /hunter2/);
  });
});
