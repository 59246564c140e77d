import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { KeyPolicyError, KeyStateError, KeyStoreUnavailableError, UnknownKeyIdError } from '../../../gateway/keys/key-errors.ts';
import { openKeyStore, type LocalKeyStore } from '../../../gateway/keys/key-store.ts';

const day = 86_400_000;
let clock = new Date('2026-03-01T12:00:00.000Z');
const now = () => clock;
let path = '';
let store: LocalKeyStore;
const raw = () => new Database(path);

beforeEach(() => {
  clock = new Date('2026-03-01T12:00:00.000Z');
  path = join(mkdtempSync(join(tmpdir(), 'hra-keys-')), 'keys.sqlite');
  store = openKeyStore(path, { now });
});
afterEach(async () => store.close());

describe('openKeyStore', () => {
  it('creates the schema in WAL journal mode', () => {
    const db = raw();
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('user_version', { simple: true }), 1);
    db.close();
  });

  const unavailable: ReadonlyArray<[string, () => string, boolean]> = [
    ['a directory that does not exist', () => join(path, 'missing', 'keys.sqlite'), false],
    ['a missing file opened read-only', () => join(path, '..', 'absent.sqlite'), true],
    ['a file that is not a database', () => { const file = `${path}.txt`; writeFileSync(file, 'x'.repeat(4096)); return file; }, false],
  ];
  for (const [name, target, readonly] of unavailable) {
    it(`throws KeyStoreUnavailableError for ${name}`, () => {
      assert.throws(() => openKeyStore(target(), { now, readonly }), KeyStoreUnavailableError);
    });
  }

  it('refuses a store written by a newer schema version', async () => {
    await store.close();
    const db = raw();
    db.pragma('user_version = 2');
    db.close();
    assert.throws(() => openKeyStore(path, { now }), /schema version 2/);
    store = openKeyStore(join(path, '..', 'other.sqlite'), { now });
  });

  it('lets a read-only gateway see keys a writer creates later', async () => {
    const gateway = openKeyStore(path, { now, readonly: true });
    const issued = await store.createKey({ tier: 'nonprofit' });
    assert.equal(gateway.lookupKey(issued.key).kind, 'valid');
    await gateway.close();
  });
});

describe('KeyStore.createKey', () => {
  it('stores only the SHA-256 digest and the internal enterprise tier', async () => {
    const issued = await store.createKey({ tier: 'commercial', label: 'acme' });
    assert.deepEqual({ ...issued, key: undefined }, {
      id: issued.id, key: undefined, tier: 'commercial', cities: null, label: 'acme',
      createdAt: clock.toISOString(), expiresAt: null, rotatedFrom: null,
    });
    const db = raw();
    const row = db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    db.close();
    assert.equal(row.secret_digest, createHash('sha256').update(issued.key).digest('hex'));
    assert.equal(row.tier, 'enterprise');
    assert.ok(!Object.values(row).includes(issued.key));
  });

  it('writes nothing when the policy refuses', async () => {
    await assert.rejects(store.createKey({ tier: 'trial', cities: ['a'], days: 31 }), KeyPolicyError);
    assert.deepEqual(await store.listKeys(), []);
  });
});

describe('KeyStore.revokeKey', () => {
  it('stops the key at once and keeps the first revocation time', async () => {
    const issued = await store.createKey({ tier: 'nonprofit' });
    assert.deepEqual(await store.revokeKey(issued.id), { id: issued.id, revokedAt: clock.toISOString(), alreadyRevoked: false });
    assert.deepEqual(store.lookupKey(issued.key), { kind: 'revoked', id: issued.id });
    const first = clock.toISOString();
    clock = new Date(clock.getTime() + day);
    assert.deepEqual(await store.revokeKey(issued.id), { id: issued.id, revokedAt: first, alreadyRevoked: true });
  });

  it('refuses an unknown id', async () => {
    await assert.rejects(store.revokeKey('key_000000000000'), UnknownKeyIdError);
  });
});

describe('KeyStore.rotateKey', () => {
  it('revokes the old secret and issues a successor with the same policy', async () => {
    const old = await store.createKey({ tier: 'trial', cities: ['a', 'b'], days: 10, label: 'pilot' });
    clock = new Date(clock.getTime() + day);
    const next = await store.rotateKey(old.id);
    assert.notEqual(next.id, old.id);
    assert.notEqual(next.key, old.key);
    assert.deepEqual({ ...next, id: '', key: '' }, {
      id: '', key: '', tier: 'trial', cities: ['a', 'b'], label: 'pilot',
      createdAt: clock.toISOString(), expiresAt: old.expiresAt, rotatedFrom: old.id,
    });
    assert.deepEqual(store.lookupKey(old.key), { kind: 'revoked', id: old.id });
    assert.equal(store.lookupKey(next.key).kind, 'valid');
    await assert.rejects(store.rotateKey(old.id), new RegExp(`was rotated to ${next.id}`));
  });

  it('refuses unknown, revoked and expired keys', async () => {
    await assert.rejects(store.rotateKey('key_000000000000'), UnknownKeyIdError);
    const revoked = await store.createKey({ tier: 'nonprofit' });
    await store.revokeKey(revoked.id);
    await assert.rejects(store.rotateKey(revoked.id), (error: unknown) => error instanceof KeyStateError && /is revoked/.test(error.message));
    const expired = await store.createKey({ tier: 'commercial', expiresAt: new Date(clock.getTime() - 1) });
    await assert.rejects(store.rotateKey(expired.id), /expired at .*create a new key/);
  });
});

describe('KeyStore.listKeys', () => {
  it('lists every key, oldest first, with its status and never a secret or digest', async () => {
    const tick = () => { clock = new Date(clock.getTime() + 1000); };
    const active = await store.createKey({ tier: 'commercial' });
    tick();
    const revoked = await store.createKey({ tier: 'nonprofit' });
    await store.revokeKey(revoked.id);
    tick();
    const rotated = await store.rotateKey(active.id);
    tick();
    const trial = await store.createKey({ tier: 'trial', cities: ['a'], days: 1 });
    clock = new Date(clock.getTime() + day);
    const listed = await store.listKeys();
    const text = JSON.stringify(listed);
    for (const secret of [active.key, revoked.key, rotated.key, trial.key]) {
      assert.ok(!text.includes(secret));
      assert.ok(!text.includes(createHash('sha256').update(secret).digest('hex')));
    }
    assert.deepEqual(listed.map((key) => [key.id, key.tier, key.status, key.rotatedFrom, key.cities]), [
      [active.id, 'commercial', 'revoked', null, null],
      [revoked.id, 'nonprofit', 'revoked', null, null],
      [rotated.id, 'commercial', 'active', active.id, null],
      [trial.id, 'trial', 'expired', null, ['a']],
    ]);
  });
});
