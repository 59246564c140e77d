import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { generateKey } from '../../../gateway/keys/key-format.ts';
import { KeyStoreUnavailableError } from '../../../gateway/keys/key-errors.ts';
import { openKeyStore, type LocalKeyStore } from '../../../gateway/keys/sqlite-key-store.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const day = 86_400_000;
let clock = new Date('2026-03-01T12:00:00.000Z');
const now = () => clock;
let path = '';
let store: LocalKeyStore;
const raw = () => new Database(path);

beforeEach(() => {
  clock = new Date('2026-03-01T12:00:00.000Z');
  path = join(makeTempDir('hra-keys-'), 'keys.sqlite');
  store = openKeyStore(path, { now });
});
afterEach(async () => store.close());

describe('KeyStore.lookupKey', () => {
  it('answers missing, malformed and unknown without a stored key', () => {
    const valid = generateKey('trial');
    const cases: ReadonlyArray<[string | undefined, string]> = [
      [undefined, 'missing'],
      ['', 'missing'],
      ['not-a-key', 'malformed'],
      [`${valid.slice(0, -1)}${valid.endsWith('0') ? '1' : '0'}`, 'malformed'],
      [valid, 'unknown'],
    ];
    for (const [input, kind] of cases) assert.deepEqual(store.lookupKey(input), { kind });
  });

  it('never touches the database for a malformed key', async () => {
    await store.close();
    assert.deepEqual(store.lookupKey('hra_t_nope'), { kind: 'malformed' });
    assert.throws(() => store.lookupKey(generateKey('trial')), KeyStoreUnavailableError);
    store = openKeyStore(path, { now });
  });

  it('finds a trial key with its cities until it expires', async () => {
    const issued = await store.createKey({ tier: 'trial', cities: ['detroit', 'austin'], days: 2 });
    const expiresAt = new Date(clock.getTime() + 2 * day).toISOString();
    assert.deepEqual(store.lookupKey(issued.key), {
      kind: 'valid',
      key: { id: issued.id, tier: 'trial', cities: ['detroit', 'austin'], expiresAt },
    });
    clock = new Date(clock.getTime() + 2 * day - 1);
    assert.equal(store.lookupKey(issued.key).kind, 'valid');
    clock = new Date(clock.getTime() + 1);
    assert.deepEqual(store.lookupKey(issued.key), { kind: 'expired', id: issued.id });
  });

  it('reports a key created already expired', async () => {
    const issued = await store.createKey({ tier: 'trial', cities: ['a'], expiresAt: new Date(clock.getTime() - day) });
    assert.deepEqual(store.lookupKey(issued.key), { kind: 'expired', id: issued.id });
  });

  const broken: ReadonlyArray<[string, string]> = [
    ['no cities', 'cities = NULL'],
    ['empty cities', "cities = '[]'"],
    ['six cities', `cities = '["a","b","c","d","e","f"]'`],
    ['no expiry', 'expires_at = NULL'],
    ['a 31-day lifetime', "expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+31 days')"],
  ];
  for (const [name, assignment] of broken) {
    it(`reports trial-policy-invalid for a stored trial with ${name}`, async () => {
      const issued = await store.createKey({ tier: 'trial', cities: ['a'], days: 1 });
      const db = raw();
      db.prepare(`UPDATE api_keys SET ${assignment} WHERE id = ?`).run(issued.id);
      db.close();
      assert.deepEqual(store.lookupKey(issued.key), { kind: 'trial-policy-invalid', id: issued.id });
    });
  }

  it('fails closed on a corrupt row', async () => {
    const issued = await store.createKey({ tier: 'nonprofit' });
    const db = raw();
    db.prepare(`UPDATE api_keys SET cities = '["a"]' WHERE id = ?`).run(issued.id);
    db.close();
    assert.throws(() => store.lookupKey(issued.key), /row key_\w+ is corrupt: nonprofit key has a city list/);
  });

  it('sees another connection\'s revoke, tier change and new key from the next event-loop turn', async () => {
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const issued = await store.createKey({ tier: 'nonprofit' });
    const later = generateKey('commercial');
    assert.equal(store.lookupKey(issued.key).kind, 'valid');
    assert.equal(store.lookupKey(later).kind, 'unknown');
    await turn();

    // A second store on the same file, as `hra keys` in another process would be.
    const other = openKeyStore(path, { now });
    const promoted = await other.createKey({ tier: 'trial', cities: ['a'], days: 1 });
    await other.revokeKey(issued.id);
    await other.close();
    await turn();
    assert.deepEqual(store.lookupKey(issued.key), { kind: 'revoked', id: issued.id });
    assert.equal(store.lookupKey(promoted.key).kind, 'valid');

    const db = raw();
    db.prepare(`UPDATE api_keys SET tier = 'enterprise', cities = NULL, expires_at = NULL WHERE id = ?`).run(promoted.id);
    db.close();
    await turn();
    const result = store.lookupKey(promoted.key);
    assert.equal(result.kind === 'valid' ? result.key.tier : result.kind, 'commercial');
  });

  it('judges a cached key once: the same verdict until it expires, and a fresh one after a revoke', async () => {
    const trial = await store.createKey({ tier: 'trial', cities: ['detroit'], days: 1 });
    const paid = await store.createKey({ tier: 'commercial' });
    const first = store.lookupKey(trial.key);
    assert.equal(first.kind, 'valid');
    // The request path reuses the verdict rather than parsing the row's dates and minting a key again.
    assert.equal(store.lookupKey(trial.key), first);
    assert.equal(store.lookupKey(paid.key), store.lookupKey(paid.key));
    clock = new Date(clock.getTime() + day - 1);
    assert.equal(store.lookupKey(trial.key), first);
    clock = new Date(clock.getTime() + 1);
    assert.deepEqual(store.lookupKey(trial.key), { kind: 'expired', id: trial.id });
    // A clock set back finds the key as a fresh judgement would.
    clock = new Date(clock.getTime() - 1);
    assert.equal(store.lookupKey(trial.key).kind, 'valid');
    await store.revokeKey(paid.id);
    assert.deepEqual(store.lookupKey(paid.key), { kind: 'revoked', id: paid.id });
  });
});
