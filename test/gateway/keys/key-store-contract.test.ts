/**
 * The KeyStore contract, run against both stores: the embedded SQLite file and a real PostgreSQL cluster
 * started by this file. Each test gets a fresh store; a second handle on the same store plays another
 * gateway host. Lookups are awaited, since a PostgreSQL cache miss answers with a promise.
 */
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import pg from 'pg';
import { generateKey } from '../../../gateway/keys/key-format.ts';
import { KeyPolicyError, KeyStateError, KeyStoreUnavailableError, UnknownKeyIdError } from '../../../gateway/keys/key-errors.ts';
import type { KeyStore } from '../../../gateway/keys/key-store.ts';
import { openKeyStoreAt } from '../../../gateway/keys/key-store-url.ts';
import { postgresServerSkip, startPostgresServer, type PostgresServer } from '../../support/postgres-server.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const day = 86_400_000;
let clock = new Date('2026-03-01T12:00:00.000Z');
const now = () => clock;

interface StoreKind {
  readonly name: 'sqlite' | 'postgres';
  readonly skip: string | false;
  /** A fresh, empty store location. */
  location(): Promise<string>;
  /** How long another handle may take to obey a change (SQLite: a later event-loop turn; PostgreSQL: the 1 s). */
  readonly propagationMs: number;
}

let postgres: PostgresServer | undefined;
const dirs: string[] = [];
const kinds: StoreKind[] = [
  {
    name: 'sqlite',
    skip: false,
    location: async () => {
      const dir = makeTempDir('hra-keys-contract-');
      dirs.push(dir);
      return join(dir, 'keys.sqlite');
    },
    propagationMs: 100,
  },
  {
    name: 'postgres',
    skip: postgresServerSkip(),
    location: async () => {
      postgres ??= await startPostgresServer();
      return postgres.createDatabase();
    },
    propagationMs: 1000,
  },
];
if (kinds[1]!.skip) console.log(`# skipping the PostgreSQL key store contract: ${kinds[1]!.skip}`);

after(async () => {
  await postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Polls `lookup` until it answers `kind` or `withinMs` passes; returns the elapsed milliseconds. */
async function settlesTo(store: KeyStore, key: string, kind: string, withinMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const result = await store.lookupKey(key);
    if (result.kind === kind) return performance.now() - started;
    if (performance.now() - started > withinMs) assert.fail(`still ${result.kind} after ${withinMs} ms, expected ${kind}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

for (const kind of kinds) {
  describe(`KeyStore contract on ${kind.name}`, { skip: kind.skip }, () => {
    let location = '';
    let store: KeyStore;
    const opened: KeyStore[] = [];
    const open = async (role: 'gateway' | 'cli') => {
      const handle = (await openKeyStoreAt(location, { now, role })).store;
      opened.push(handle);
      return handle;
    };
    before(async () => {
      if (kind.name === 'postgres') postgres ??= await startPostgresServer();
    });
    beforeEach(async () => {
      clock = new Date('2026-03-01T12:00:00.000Z');
      location = await kind.location();
      store = await open('cli');
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((handle) => handle.close()));
    });

    it('issues a key it then finds, and never lists a secret', async () => {
      const issued = await store.createKey({ tier: 'commercial', label: 'acme' });
      assert.deepEqual({ ...issued, key: undefined }, {
        id: issued.id, key: undefined, tier: 'commercial', cities: null, label: 'acme',
        createdAt: clock.toISOString(), expiresAt: null, rotatedFrom: null,
      });
      const gateway = await open('gateway');
      assert.deepEqual(await gateway.lookupKey(issued.key), { kind: 'valid', key: { id: issued.id, tier: 'commercial', cities: null, expiresAt: null } });
      assert.ok(!JSON.stringify(await store.listKeys()).includes(issued.key));
    });

    it('writes nothing when the policy refuses', async () => {
      await assert.rejects(store.createKey({ tier: 'trial', cities: ['a'], days: 31 }), KeyPolicyError);
      assert.deepEqual(await store.listKeys(), []);
    });

    it('answers missing, malformed and unknown', async () => {
      const gateway = await open('gateway');
      const valid = generateKey('trial');
      const cases: ReadonlyArray<[string | undefined, string]> = [[undefined, 'missing'], ['', 'missing'], ['not-a-key', 'malformed'], [valid, 'unknown']];
      for (const [input, expected] of cases) assert.deepEqual(await gateway.lookupKey(input), { kind: expected }, String(input));
    });

    it('judges expiry at the injected clock, cached or not', async () => {
      const issued = await store.createKey({ tier: 'trial', cities: ['detroit', 'austin'], days: 2 });
      const gateway = await open('gateway');
      assert.equal((await gateway.lookupKey(issued.key)).kind, 'valid');
      clock = new Date(clock.getTime() + 2 * day - 1);
      assert.equal((await gateway.lookupKey(issued.key)).kind, 'valid');
      clock = new Date(clock.getTime() + 1);
      assert.deepEqual(await gateway.lookupKey(issued.key), { kind: 'expired', id: issued.id });
    });

    it('revokes once, keeps the first time, and the revocation reaches another host', async () => {
      const issued = await store.createKey({ tier: 'nonprofit' });
      const other = await open('gateway');
      assert.equal((await other.lookupKey(issued.key)).kind, 'valid');
      assert.deepEqual(await store.revokeKey(issued.id), { id: issued.id, revokedAt: clock.toISOString(), alreadyRevoked: false });
      assert.deepEqual(await store.lookupKey(issued.key), { kind: 'revoked', id: issued.id });
      await settlesTo(other, issued.key, 'revoked', kind.propagationMs);
      const first = clock.toISOString();
      clock = new Date(clock.getTime() + day);
      assert.deepEqual(await store.revokeKey(issued.id), { id: issued.id, revokedAt: first, alreadyRevoked: true });
      await assert.rejects(store.revokeKey('key_000000000000'), UnknownKeyIdError);
    });

    it('rotates to a successor with the same policy, and refuses unknown, revoked and expired keys', async () => {
      const old = await store.createKey({ tier: 'trial', cities: ['a', 'b'], days: 10, label: 'pilot' });
      const other = await open('gateway');
      assert.equal((await other.lookupKey(old.key)).kind, 'valid');
      clock = new Date(clock.getTime() + day);
      const next = await store.rotateKey(old.id);
      assert.deepEqual({ ...next, id: '', key: '' }, {
        id: '', key: '', tier: 'trial', cities: ['a', 'b'], label: 'pilot',
        createdAt: clock.toISOString(), expiresAt: old.expiresAt, rotatedFrom: old.id,
      });
      await settlesTo(other, old.key, 'revoked', kind.propagationMs);
      assert.equal((await other.lookupKey(next.key)).kind, 'valid');
      await assert.rejects(store.rotateKey(old.id), new RegExp(`was rotated to ${next.id}`));
      await assert.rejects(store.rotateKey('key_000000000000'), UnknownKeyIdError);
      const revoked = await store.createKey({ tier: 'nonprofit' });
      await store.revokeKey(revoked.id);
      await assert.rejects(store.rotateKey(revoked.id), (error: unknown) => error instanceof KeyStateError && /is revoked/.test(error.message));
      const expired = await store.createKey({ tier: 'commercial', expiresAt: new Date(clock.getTime() - 1) });
      await assert.rejects(store.rotateKey(expired.id), /expired at .*create a new key/);
    });

    it('lists every key, oldest first, with its status', async () => {
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
      assert.deepEqual((await store.listKeys()).map((key) => [key.id, key.tier, key.status, key.rotatedFrom, key.cities]), [
        [active.id, 'commercial', 'revoked', null, null],
        [revoked.id, 'nonprofit', 'revoked', null, null],
        [rotated.id, 'commercial', 'active', active.id, null],
        [trial.id, 'trial', 'expired', null, ['a']],
      ]);
    });

    it('reopens an existing store without changing it', async () => {
      const issued = await store.createKey({ tier: 'nonprofit' });
      const again = await open('cli');
      assert.deepEqual((await again.listKeys()).map((key) => key.id), [issued.id]);
    });
  });
}

describe('PostgreSQL key store specifics', { skip: kinds[1]!.skip }, () => {
  let url = '';
  const sql = async (text: string): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  before(async () => {
    postgres ??= await startPostgresServer();
  });
  beforeEach(async () => {
    url = await postgres!.createDatabase();
  });

  it('obeys a tier change written by hand in SQL within 1 s (the trigger announces it)', async () => {
    const cli = (await openKeyStoreAt(url, { now, role: 'cli' })).store;
    const issued = await cli.createKey({ tier: 'nonprofit' });
    const gateway = (await openKeyStoreAt(url, { now, role: 'gateway' })).store;
    try {
      const before = await gateway.lookupKey(issued.key);
      assert.equal(before.kind === 'valid' && before.key.tier, 'nonprofit');
      await sql(`UPDATE api_keys SET tier = 'enterprise' WHERE id = '${issued.id}'`);
      const started = performance.now();
      for (;;) {
        const after = await gateway.lookupKey(issued.key);
        if (after.kind === 'valid' && after.key.tier === 'commercial') break;
        assert.ok(performance.now() - started < 1000, 'the tier change reached the gateway within 1 s');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      await gateway.close();
      await cli.close();
    }
  });

  it('gives every process the same shared secret, created once', async () => {
    const [a, b] = await Promise.all([openKeyStoreAt(url, { now, role: 'gateway' }), openKeyStoreAt(url, { now, role: 'cli' })]);
    try {
      const [first, second] = await Promise.all([a.sharedSecret!('change-feed cursor'), b.sharedSecret!('change-feed cursor')]);
      assert.equal(first.length, 32);
      assert.deepEqual(first, second);
      assert.notDeepEqual(await a.sharedSecret!('another'), first);
    } finally {
      await a.store.close();
      await b.store.close();
    }
  });

  it('refuses a database migrated by a newer build, naming the migration', async () => {
    await (await openKeyStoreAt(url, { now, role: 'cli' })).store.close();
    await sql(`INSERT INTO key_store_migration (name, timestamp) VALUES ('9999-from-the-future', now()::text)`);
    await assert.rejects(openKeyStoreAt(url, { now, role: 'cli' }), (error: unknown) => error instanceof KeyStoreUnavailableError && /9999-from-the-future/.test(error.message));
  });

  it('fails to open, naming the store without its password, when nothing listens', async () => {
    const closed = url.replace(/:(\d+)\//, ':1/').replace('hra@', 'hra:hunter2@');
    await assert.rejects(openKeyStoreAt(closed, { now, role: 'cli' }), (error: unknown) =>
      error instanceof KeyStoreUnavailableError && error.message.includes('hra:***@127.0.0.1:1/') && !error.message.includes('hunter2'));
  });
});
