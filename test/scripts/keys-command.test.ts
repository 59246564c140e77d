import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openKeyStore } from '../../gateway/keys/key-store.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'hra-keys-cli-'));
const keys = join(dir, 'keys.sqlite');

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function hra(...args: string[]): Run {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', 'keys', ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function lastJson(run: Run): Record<string, unknown> {
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '') as Record<string, unknown>;
}

function lookup(key: unknown): string {
  const store = openKeyStore(keys, { now: () => new Date(), readonly: true });
  try {
    return store.lookupKey(String(key)).kind;
  } finally {
    void store.close();
  }
}

describe('hra keys', () => {
  const dataset = join(dir, 'snapshot.sqlite');
  before(() => {
    const db = new Database(dataset);
    db.exec("CREATE TABLE cities (slug TEXT, status TEXT); INSERT INTO cities VALUES ('detroit','live'),('gary','paused');");
    db.close();
  });

  it('creates a trial key and prints it once as JSON', () => {
    const out = lastJson(hra('create', '--keys', keys, '--tier', 'trial', '--cities', 'detroit,austin', '--days', '7', '--json'));
    assert.deepEqual(Object.keys(out), ['id', 'key', 'tier', 'expiresAt', 'cities']);
    assert.match(String(out.id), /^key_[0-9A-Za-z]{12}$/);
    assert.match(String(out.key), /^hra_t_[0-9A-Za-z]{38}$/);
    assert.equal(out.tier, 'trial');
    assert.deepEqual(out.cities, ['detroit', 'austin']);
    assert.ok(Math.abs(Date.parse(String(out.expiresAt)) - Date.now() - 7 * 86_400_000) < 60_000);
    assert.equal(lookup(out.key), 'valid');
  });

  it('creates a commercial key with no expiry and unrestricted cities', () => {
    const out = lastJson(hra('create', '--keys', keys, '--tier', 'commercial', '--label', 'acme', '--json'));
    assert.deepEqual({ ...out, id: null, key: null }, { id: null, key: null, tier: 'commercial', expiresAt: null, cities: [] });
    assert.match(String(out.key), /^hra_c_/);
  });

  it('creates an already-expired key with --expires-at in the past', () => {
    const out = lastJson(hra('create', '--keys', keys, '--tier', 'trial', '--cities', 'detroit', '--expires-at', '2020-01-01T00:00:00Z', '--json'));
    assert.equal(out.expiresAt, '2020-01-01T00:00:00.000Z');
    assert.equal(lookup(out.key), 'expired');
  });

  it('accepts live cities of --dataset', () => {
    const out = lastJson(hra('create', '--keys', keys, '--tier', 'trial', '--cities', 'detroit', '--dataset', dataset, '--json'));
    assert.deepEqual(out.cities, ['detroit']);
  });

  it('rotates: the old key stops, the new one is printed once', () => {
    const old = lastJson(hra('create', '--keys', keys, '--tier', 'nonprofit', '--json'));
    const next = lastJson(hra('rotate', '--keys', keys, String(old.id), '--json'));
    assert.equal(next.rotatedFrom, old.id);
    assert.notEqual(next.key, old.key);
    assert.equal(lookup(old.key), 'revoked');
    assert.equal(lookup(next.key), 'valid');
  });

  it('revokes, then lists every key without secrets', () => {
    const created = lastJson(hra('create', '--keys', keys, '--tier', 'nonprofit', '--json'));
    const revoked = lastJson(hra('revoke', '--keys', keys, String(created.id), '--json'));
    assert.deepEqual(Object.keys(revoked), ['id', 'revokedAt', 'alreadyRevoked']);
    assert.equal(lookup(created.key), 'revoked');
    const text = hra('revoke', '--keys', keys, String(created.id));
    assert.match(text.stdout, new RegExp(`^already revoked ${created.id} at `));
    const list = hra('list', '--keys', keys, '--json');
    const listed = lastJson(list).keys as Array<Record<string, unknown>>;
    assert.ok(listed.some((key) => key.id === created.id && key.status === 'revoked'));
    assert.doesNotMatch(list.stdout, /hra_[tnc]_|[0-9a-f]{64}/);
    assert.doesNotMatch(hra('list', '--keys', keys).stdout, /hra_[tnc]_/);
  });

  const refused: ReadonlyArray<[string, string[], RegExp]> = [
    ['a trial without cities', ['--tier', 'trial'], /a trial key needs --cities/],
    ['a trial with 6 cities', ['--tier', 'trial', '--cities', 'a,b,c,d,e,f'], /needs 1 to 5 city slugs, got 6/],
    ['a trial of 31 days', ['--tier', 'trial', '--cities', 'a', '--days', '31'], /at most 30 days, got 31 days/],
    ['a trial expiring in 40 days', ['--tier', 'trial', '--cities', 'a', '--expires-at', new Date(Date.now() + 40 * 86_400_000).toISOString()], /at most 30 days/],
    ['a bad slug', ['--tier', 'trial', '--cities', 'Detroit'], /city slug "Detroit" must match/],
    ['a city that is not live', ['--tier', 'trial', '--cities', 'gary', '--dataset', join(dir, 'snapshot.sqlite')], /"gary" is not a live city/],
    ['cities on a commercial key', ['--tier', 'commercial', '--cities', 'detroit'], /only for trial keys/],
    ['an unknown tier', ['--tier', 'enterprise'], /--tier must be one of trial, nonprofit, commercial, got "enterprise"/],
    ['a non-numeric --days', ['--tier', 'nonprofit', '--days', '3d'], /--days must be a whole number/],
    ['--days with --expires-at', ['--tier', 'nonprofit', '--days', '3', '--expires-at', '2030-01-01'], /not both/],
    ['a bad --expires-at', ['--tier', 'nonprofit', '--expires-at', 'tomorrow'], /--expires-at must be an ISO 8601/],
    ['a missing dataset', ['--tier', 'trial', '--cities', 'a', '--dataset', join(dir, 'nope.sqlite')], /--dataset: dataset .* cannot be opened/],
  ];
  for (const [name, args, message] of refused) {
    it(`refuses ${name} with one stderr line and no key`, () => {
      const run = hra('create', '--keys', keys, ...args, '--json');
      assert.equal(run.status, 1);
      assert.equal(run.stdout, '');
      const lines = run.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0] ?? '', message);
    });
  }

  const unknownId: ReadonlyArray<[string, string[]]> = [
    ['revoke', ['revoke', '--keys', keys, 'key_000000000000']],
    ['rotate', ['rotate', '--keys', keys, 'key_000000000000', '--json']],
  ];
  for (const [name, args] of unknownId) {
    it(`${name} refuses an unknown id`, () => {
      const run = hra(...args);
      assert.equal(run.status, 1);
      assert.equal(run.stderr, 'hra: no key with id "key_000000000000"\n');
    });
  }

  it('reports an unusable key store on one line', () => {
    const run = hra('list', '--keys', join(dir, 'missing-dir', 'keys.sqlite'), '--json');
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /^hra: key store unavailable while opening .*missing-dir.*\n$/);
  });
});
