/** SQLite specifics of the key store: the file, its journal mode and schema version, what it stores. The lifecycle itself is in key-store-contract.test.ts, run on both stores. */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
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
});
