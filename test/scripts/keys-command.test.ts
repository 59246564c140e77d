import { strict as assert } from 'node:assert';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openKeyStore } from '../../gateway/keys/sqlite-key-store.ts';
import { runHra, stderrLines, type HraRun } from '../support/run-hra.ts';
import { buildTestSnapshot } from '../support/start-test-gateway.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const dir = makeTempDir('hra-keys-cli-');
const keys = join(dir, 'keys.sqlite');
/** A snapshot built from the mini corpus: alpha, beta and gamma live, delta pending. */
let dataset = '';

type Run = HraRun;

/** `hra keys <args>` with the test's snapshot as HRA_DATASET unless `env` says otherwise. */
function hra(...args: string[]): Run {
  return runHra(['keys', ...args], { env: { HRA_DATASET: dataset } });
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

/** Keys in the store, read directly: a refused create must not add one. */
function keyCount(): number {
  const db = new Database(keys, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM api_keys').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('hra keys', () => {
  before(() => {
    dataset = buildTestSnapshot();
  });

  it('creates a trial key and prints it once as JSON, creating the store and saying so on stderr', () => {
    assert.equal(existsSync(keys), false);
    const run = hra('create', '--keys', keys, '--tier', 'trial', '--cities', 'alpha,beta', '--days', '7', '--json');
    assert.ok(stderrLines(run).includes(`created key store ${keys}`), run.stderr);
    const out = lastJson(run);
    assert.deepEqual(Object.keys(out), ['ok', 'id', 'key', 'tier', 'expiresAt', 'cities']);
    assert.match(String(out.id), /^key_[0-9A-Za-z]{12}$/);
    assert.match(String(out.key), /^hra_t_[0-9A-Za-z]{38}$/);
    assert.equal(out.tier, 'trial');
    assert.deepEqual(out.cities, ['alpha', 'beta']);
    assert.ok(Math.abs(Date.parse(String(out.expiresAt)) - Date.now() - 7 * 86_400_000) < 60_000);
    assert.equal(lookup(out.key), 'valid');
  });

  it('creates a commercial key with no expiry and unrestricted cities', () => {
    const out = lastJson(hra('create', '--keys', keys, '--tier', 'commercial', '--label', 'acme', '--json'));
    assert.deepEqual({ ...out, id: null, key: null }, { ok: true, id: null, key: null, tier: 'commercial', expiresAt: null, cities: [] });
    assert.match(String(out.key), /^hra_c_/);
  });

  it('creates an already-expired key with --expires-at in the past', () => {
    const out = lastJson(hra('create', '--keys', keys, '--tier', 'trial', '--cities', 'alpha', '--expires-at', '2020-01-01T00:00:00Z', '--json'));
    assert.equal(out.expiresAt, '2020-01-01T00:00:00.000Z');
    assert.equal(lookup(out.key), 'expired');
  });

  it('accepts live cities of --dataset', () => {
    const run = runHra(['keys', 'create', '--keys', keys, '--tier', 'trial', '--cities', 'gamma', '--dataset', dataset, '--json']);
    assert.deepEqual(lastJson(run).cities, ['gamma']);
    assert.ok(!run.stderr.includes('created key store'), 'an existing store is not announced as created');
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
    assert.deepEqual(Object.keys(revoked), ['ok', 'id', 'revokedAt', 'alreadyRevoked']);
    assert.equal(lookup(created.key), 'revoked');
    const text = hra('revoke', '--keys', keys, String(created.id));
    assert.match(text.stdout, new RegExp(`^already revoked ${created.id} at `));
    const list = hra('list', '--keys', keys, '--json');
    const listed = lastJson(list).keys as Array<Record<string, unknown>>;
    assert.ok(listed.some((key) => key.id === created.id && key.status === 'revoked'));
    assert.doesNotMatch(list.stdout, /hra_[tnc]_|[0-9a-f]{64}/);
    assert.doesNotMatch(hra('list', '--keys', keys).stdout, /hra_[tnc]_/);
  });

  it('lists keys under a header row naming the columns', () => {
    const created = lastJson(hra('create', '--keys', keys, '--tier', 'commercial', '--label', 'acme', '--json'));
    const lines = hra('list', '--keys', keys).stdout.trimEnd().split('\n');
    assert.equal(lines[0], 'id\ttier\tstatus\texpires\tcities\tlabel');
    const row = lines.find((line) => line.startsWith(`${String(created.id)}\t`));
    assert.equal(row, `${String(created.id)}\tcommercial\tactive\tno-expiry\t*\tacme`);
  });

  const refused: ReadonlyArray<[string, string[], RegExp]> = [
    ['a trial without cities', ['--tier', 'trial'], /a trial key needs --cities/],
    ['a trial with 6 cities', ['--tier', 'trial', '--cities', 'a,b,c,d,e,f'], /needs 1 to 5 city slugs, got 6/],
    ['a trial of 31 days', ['--tier', 'trial', '--cities', 'alpha', '--days', '31'], /at most 30 days, got 31 days/],
    ['a trial expiring in 40 days', ['--tier', 'trial', '--cities', 'alpha', '--expires-at', new Date(Date.now() + 40 * 86_400_000).toISOString()], /at most 30 days/],
    ['a bad slug', ['--tier', 'trial', '--cities', 'Detroit'], /city slug "Detroit" must match/],
    ['a pending city', ['--tier', 'trial', '--cities', 'delta'], /^hra: city slug "delta" is not a live city of HRA_DATASET \S+\.sqlite$/],
    ['an unknown city', ['--tier', 'trial', '--cities', 'alpha,gotham', '--dataset', '<dataset>'], /^hra: city slug "gotham" is not a live city of --dataset \S+\.sqlite$/],
    ['the national layer as a city', ['--tier', 'trial', '--cities', 'national'], /^hra: city slug "national" is not a live city of HRA_DATASET /],
    ['a dataset that is not a snapshot', ['--tier', 'trial', '--cities', 'alpha', '--dataset', '<keys>'], /^hra: --dataset \S+keys\.sqlite: cannot read its live cities: snapshot \S+ refused: /],
    ['cities on a commercial key', ['--tier', 'commercial', '--cities', 'detroit'], /only for trial keys/],
    ['an unknown tier', ['--tier', 'enterprise'], /--tier must be one of trial, nonprofit, commercial, got "enterprise"/],
    ['a non-numeric --days', ['--tier', 'nonprofit', '--days', '3d'], /--days must be a whole number/],
    ['--days with --expires-at', ['--tier', 'nonprofit', '--days', '3', '--expires-at', '2030-01-01'], /not both/],
    ['a bad --expires-at', ['--tier', 'nonprofit', '--expires-at', 'tomorrow'], /--expires-at must be an ISO 8601/],
    ['a missing dataset', ['--tier', 'trial', '--cities', 'a', '--dataset', join(dir, 'nope.sqlite')], /^hra: --dataset \S+nope\.sqlite: snapshot file not found$/],
  ];
  for (const [name, args, message] of refused) {
    it(`refuses ${name} with one stderr line and no key`, () => {
      const before = keyCount();
      const run = hra('create', '--keys', keys, ...args.map((arg) => (arg === '<dataset>' ? dataset : arg === '<keys>' ? keys : arg)));
      assert.equal(run.status, 1);
      assert.equal(run.stdout, '');
      const lines = run.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0] ?? '', message);
      assert.equal(keyCount(), before, 'nothing was issued');
    });
  }

  it('refuses a trial key when no dataset can be read: the default dist/current.sqlite is missing', () => {
    const elsewhere = makeTempDir('hra-keys-no-dist-');
    const run = runHra(['keys', 'create', '--keys', keys, '--tier', 'trial', '--cities', 'alpha'], { cwd: elsewhere });
    assert.equal(run.status, 1);
    assert.deepEqual(stderrLines(run), ['hra: default --dataset dist/current.sqlite: snapshot file not found']);
  });

  it('a refused create leaves no new key store behind', () => {
    const fresh = join(dir, 'refused.sqlite');
    const run = hra('create', '--keys', fresh, '--tier', 'trial', '--cities', 'gotham');
    assert.equal(run.status, 1);
    assert.equal(existsSync(fresh), false);
  });

  for (const command of [['list'], ['revoke', 'key_000000000000'], ['rotate', 'key_000000000000']]) {
    it(`${command[0]} refuses a key store that does not exist, and does not create it`, () => {
      const typo = join(dir, 'kyes.sqlite');
      const run = hra(command[0] ?? '', '--keys', typo, ...command.slice(1), '--json');
      assert.equal(run.status, 1);
      assert.deepEqual(stderrLines(run), [`hra: --keys ${typo}: key store not found (only hra keys create makes a new one)`]);
      assert.equal(existsSync(typo), false);
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

  it('reports a store in a missing directory as not found, on one line', () => {
    const run = hra('list', '--keys', join(dir, 'missing-dir', 'keys.sqlite'), '--json');
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /^hra: --keys \S*missing-dir\S*: key store not found .*\n$/);
  });

  it('reports an unusable key store on one line', () => {
    const text = join(dir, 'not-a-store.sqlite');
    writeFileSync(text, 'x'.repeat(4096));
    const run = hra('list', '--keys', text, '--json');
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /^hra: --keys: key store unavailable while opening \S*not-a-store\.sqlite.*\n$/);
  });
});
