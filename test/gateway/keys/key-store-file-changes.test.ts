/**
 * The key store follows its path (spec 3 "Key lifecycle", 1.8, 5.7): a file renamed over it, deleted,
 * truncated or overwritten is noticed at the next check, and a key already in the row cache is judged by
 * the store now at the path, or refused with KeyStoreUnavailableError while none can be read. Real SQLite
 * files; the check interval runs on an injected monotonic clock, so nothing sleeps.
 */
import { strict as assert } from 'node:assert';
import { copyFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { KeyStoreUnavailableError } from '../../../gateway/keys/key-errors.ts';
import type { KeyStoreFileEvent } from '../../../gateway/keys/follow-key-store-file.ts';
import { openKeyStore, type LocalKeyStore } from '../../../gateway/keys/sqlite-key-store.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const INTERVAL_MS = 250;
const now = () => new Date('2026-03-01T12:00:00.000Z');
let elapsed = 0;
let dir = '';
let path = '';
let gateway: LocalKeyStore;
let events: KeyStoreFileEvent[];

/** Another process's store on a file (the CLI's): opened, used, closed. */
async function withStore<T>(file: string, use: (store: LocalKeyStore) => Promise<T>): Promise<T> {
  const store = openKeyStore(file, { now });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/** The gateway's lookup in a later event-loop turn, once the check interval has passed. */
async function lookupLater(key: string) {
  elapsed += INTERVAL_MS;
  await nextTurn();
  return gateway.lookupKey(key);
}

beforeEach(() => {
  elapsed = 0;
  events = [];
  dir = makeTempDir('hra-keys-follow-');
  path = join(dir, 'keys.sqlite');
});
afterEach(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function openGatewayWithKey() {
  const issued = await withStore(path, (store) => store.createKey({ tier: 'commercial' }));
  gateway = openKeyStore(path, { now, elapsedMs: () => elapsed, fileCheckIntervalMs: INTERVAL_MS, onFileChange: (event) => events.push(event) });
  assert.equal(gateway.lookupKey(issued.key).kind, 'valid');
  return issued;
}

describe('a key store whose file changes under it', () => {
  it('reads a copy renamed over the path: a key revoked in the copy is refused though it is cached', async () => {
    const issued = await openGatewayWithKey();
    // Written while the gateway holds the file open, as `hra keys create` would: frames in the live log.
    const other = await withStore(path, (store) => store.createKey({ tier: 'nonprofit' }));
    assert.equal((await lookupLater(other.key)).kind, 'valid');
    const copy = join(dir, 'restore.sqlite');
    copyFileSync(path, copy);
    await withStore(copy, (store) => store.revokeKey(issued.id));
    renameSync(copy, path);
    assert.equal((await lookupLater(issued.key)).kind, 'revoked');
    assert.equal(gateway.lookupKey(other.key).kind, 'valid');
    // The CLI's write rewrote the file in place (it empties the write-ahead log); the rename replaced it.
    assert.deepEqual(events, [{ kind: 'reopened', path, cause: 'rewritten' }, { kind: 'reopened', path, cause: 'replaced' }]);
  });

  it('refuses every well-formed key while the file is deleted, then serves the file put back', async () => {
    const issued = await openGatewayWithKey();
    const backup = join(dir, 'backup.sqlite');
    copyFileSync(path, backup);
    rmSync(path);
    await assert.rejects(async () => lookupLater(issued.key), KeyStoreUnavailableError);
    assert.throws(() => gateway.lookupKey(issued.key), /no file at that path/);
    // Refusals that need no store are unchanged.
    assert.deepEqual(gateway.lookupKey(undefined), { kind: 'missing' });
    assert.deepEqual(gateway.lookupKey('hra_c_nope'), { kind: 'malformed' });
    renameSync(backup, path);
    assert.equal((await lookupLater(issued.key)).kind, 'valid');
    assert.deepEqual(events.map((event) => (event.kind === 'reopened' ? event.cause : event.kind)), ['unavailable', 'recovered']);
  });

  it('is unavailable while the file is truncated, and writes nothing into it', async () => {
    const issued = await openGatewayWithKey();
    const backup = join(dir, 'backup.sqlite');
    copyFileSync(path, backup);
    truncateSync(path, 0);
    await assert.rejects(async () => lookupLater(issued.key), /empty or not initialised/);
    await assert.rejects(async () => lookupLater(issued.key), KeyStoreUnavailableError);
    assert.equal(statSync(path).size, 0, 'the gateway must not create a store in the truncated file');
    copyFileSync(backup, path);
    assert.equal((await lookupLater(issued.key)).kind, 'valid');
  });

  it('is unavailable while the file is overwritten with bytes that are not a database', async () => {
    const issued = await openGatewayWithKey();
    const backup = join(dir, 'backup.sqlite');
    copyFileSync(path, backup);
    writeFileSync(path, 'not a key store\n'.repeat(512));
    await assert.rejects(async () => lookupLater(issued.key), KeyStoreUnavailableError);
    await withStore(backup, async () => undefined);
    renameSync(backup, path);
    assert.equal((await lookupLater(issued.key)).kind, 'valid');
    assert.equal(events.filter((event) => event.kind === 'unavailable').length, 1, 'one report per outage');
  });

  it('keeps serving from the cache between checks, with no stat before the interval has passed', async () => {
    const issued = await openGatewayWithKey();
    rmSync(path);
    await nextTurn();
    // The deletion is noticed at the next check, not before: the interval bounds the cost.
    assert.equal(gateway.lookupKey(issued.key).kind, 'valid');
    await assert.rejects(async () => lookupLater(issued.key), KeyStoreUnavailableError);
  });
});
