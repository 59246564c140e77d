/**
 * A snapshot whose file fails (issue 21 items 1-2), below the process level that
 * test/gateway/operations/served-file-faults.test.ts drives: a storage error is a 503 that fails the
 * snapshot, never a 500; a failed snapshot serves nothing, not even from the caches, which are emptied;
 * and a reload replaces a failed or replaced file by identity, even with a file of the same revision.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, renameSync, rmSync, truncateSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checksumFileOf } from '../../../build/snapshot/snapshot-checksum.ts';
import { segmentsFileOf } from '../../../build/snapshot/snapshot-segments.ts';
import { createRequestListener } from '../../../gateway/app.ts';
import { createEncodedBodies, type EncodedBodies } from '../../../gateway/encoding/encoded-bodies.ts';
import { ApiError } from '../../../gateway/http/api-error.ts';
import { DEFAULT_LIMITS } from '../../../gateway/limits/limit-table.ts';
import { MemoryRateLimiter } from '../../../gateway/limits/memory-rate-limiter.ts';
import { createGatewayLogger } from '../../../gateway/observability/gateway-logger.ts';
import { loadSnapshot } from '../../../gateway/snapshot/load-snapshot.ts';
import { openSnapshot, type Snapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { createSnapshotReloader } from '../../../gateway/snapshot/reload-snapshot.ts';
import { SnapshotHolder } from '../../../gateway/snapshot/snapshot-holder.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';
import { CursorKeyring } from '../../../gateway/changes/cursor-keyring.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const silent = createGatewayLogger({ level: 'silent' });
let dir: string;
let copies = 0;
before(() => {
  dir = makeTempDir('hra-snapshot-faults-');
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The HTTP app over `snapshots`, with one commercial key that every request presents and limits never reached. */
function listenerFor(snapshots: SnapshotHolder, encodings?: EncodedBodies) {
  return createRequestListener({
    snapshots,
    ...(encodings === undefined ? {} : { encodings }),
    lookupKey: () => ({ kind: 'valid', key: Object.freeze({ id: 'key_fixed', tier: 'commercial', cities: null, expiresAt: null }) as never }),
    limiter: new MemoryRateLimiter({ limits: { ...DEFAULT_LIMITS, public: { perMinute: 1_000_000, perDay: null } }, now: Date.now }),
    now: Date.now,
    infrastructure: { sharedRateLimitStorage: false, rateLimitStorageScheme: 'memory', trustedOriginProxyConfigured: false },
    trustProxy: false,
    cursorKeys: new CursorKeyring(Buffer.from('test-secret-for-snapshot-faults1')),
    log: silent,
  });
}

/** A private copy of the test snapshot with its checksum and segments files. */
function copyOfSnapshot(name = `copy-${++copies}.sqlite`): string {
  const published = buildTestSnapshot();
  const file = join(dir, name);
  copyFileSync(published, file);
  copyFileSync(checksumFileOf(published), checksumFileOf(file));
  copyFileSync(segmentsFileOf(published), segmentsFileOf(file));
  return file;
}

describe('a storage error on the snapshot', () => {
  it('is a 503 DATASET_UNAVAILABLE with Retry-After that fails the snapshot, never a SqliteError (a 500)', () => {
    const file = copyOfSnapshot();
    const snapshot = openSnapshot(file);
    const reasons: string[] = [];
    snapshot.onFail((reason) => reasons.push(reason));
    truncateSync(file, 65_536);
    // Cold reads of every kind until one reaches past the cut (each table's pages are spread over the file).
    const reads: Array<() => unknown> = [
      ...snapshot.cities().map((city) => () => snapshot.collection(city.slug)),
      () => snapshot.collection('national'),
      () => snapshot.cityRecords('alpha'),
      () => snapshot.cityRecords('beta'),
      () => snapshot.changes({ maxId: 1_000, beforeId: 1_001, limit: 100 }),
      () => snapshot.document('sample'),
    ];
    let refusal: unknown;
    for (const read of reads) {
      try {
        read();
      } catch (error) {
        refusal = error;
        break;
      }
    }
    assert.ok(refusal instanceof ApiError, `a read past the cut throws an ApiError, not ${String(refusal)}`);
    assert.deepEqual([refusal.status, refusal.code, refusal.extras.retryAfter], [503, 'DATASET_UNAVAILABLE', 1]);
    assert.match(snapshot.failure ?? '', /^storage error reading .*: SQLITE_(CORRUPT|IOERR)/);
    assert.equal(reasons.length, 1, 'the listeners are told once');
    // Failed for good: even a read the cut did not touch is refused now.
    assert.throws(() => snapshot.city('alpha'), (error) => error instanceof ApiError && error.code === 'DATASET_UNAVAILABLE');
    snapshot.close();
  });
});

/** A copy of the test snapshot, loaded as a gateway loads its first file, with the reloader that follows it. */
async function servedCopy() {
  const file = copyOfSnapshot();
  const verified = new Map<string, string>();
  const first = await loadSnapshot(file, { verified });
  const snapshots = new SnapshotHolder(first.snapshot);
  const reloader = createSnapshotReloader({ dataset: file, snapshots, servedIdentity: first.identity, verified, signal: new AbortController().signal, log: silent });
  return { file, first, snapshots, reloader };
}

describe('a reload after a fault', () => {
  it('replaces a failed snapshot with a file that verifies, even of the same revision at the same path', async () => {
    const { file, first, snapshots, reloader } = await servedCopy();
    assert.equal((await reloader.reload('test')).status, 'unchanged', 'a sound file at the same identity is left alone');
    first.snapshot.fail('test: a storage error');
    const outcome = await reloader.reload('test');
    assert.equal(outcome.status, 'swapped');
    assert.notEqual(snapshots.current, first.snapshot, 'a fresh handle');
    assert.equal(snapshots.current.failure, undefined);
    assert.equal(snapshots.current.revision, first.snapshot.revision);
    snapshots.close();
  });

  it('swaps to a good copy of the same revision renamed over the path (the identity decides, not the revision)', async () => {
    const { file, first, snapshots, reloader } = await servedCopy();
    renameSync(copyOfSnapshot(), file);
    const outcome = await reloader.reload('SIGHUP');
    assert.deepEqual([outcome.status, outcome.revision], ['swapped', first.snapshot.revision]);
    assert.notEqual(reloader.servedIdentity(), first.identity);
    snapshots.close();
  });

  it('refuses a file that does not verify and stays failed', async () => {
    const { file, first, snapshots, reloader } = await servedCopy();
    truncateSync(file, 65_536);
    first.snapshot.fail('test: truncated');
    const outcome = await reloader.reload('test');
    assert.equal(outcome.status, 'refused');
    assert.match(outcome.status === 'refused' ? outcome.reason : '', /refused: header: .*truncated/);
    assert.equal(snapshots.current, first.snapshot);
    assert.notEqual(snapshots.current.failure, undefined);
    snapshots.close();
  });
});

describe('a failed snapshot behind the HTTP app', () => {
  let server: Server;
  let url: string;
  const file = () => buildTestSnapshot();
  const reads = { collection: 0, cityRecords: 0, servedRecordPlace: 0, changes: 0 };
  /** A snapshot that counts the reads the response caches stand in for. */
  const counted = (inner: Snapshot): Snapshot => {
    const snapshot = Object.create(inner) as Snapshot;
    snapshot.collection = (city) => (reads.collection++, inner.collection(city));
    snapshot.cityRecords = (city) => (reads.cityRecords++, inner.cityRecords(city));
    snapshot.servedRecordPlace = (city, id) => (reads.servedRecordPlace++, inner.servedRecordPlace(city, id));
    snapshot.changes = (query) => (reads.changes++, inner.changes(query));
    return snapshot;
  };
  const first = counted(openSnapshot(file()));
  const snapshots = new SnapshotHolder(first);
  before(async () => {
    const listener = listenerFor(snapshots);
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    snapshots.close();
  });

  const DATA = ['/api/programs/alpha', '/api/programs/alpha?status=available', '/api/programs/beta/b-repair', '/api/changes?since=2026-01-01', '/api/sample', '/api/dataset/health', '/readyz'];
  const get = async (path: string) => {
    const response = await fetch(`${url}${path}`, { headers: { 'X-Api-Key': 'x' } });
    return { status: response.status, text: await response.text(), retryAfter: response.headers.get('retry-after'), revision: response.headers.get('x-dataset-revision') };
  };

  it('answers 503 on every data route from its caches too, keeps liveness and the OpenAPI document, and empties the caches', async () => {
    const before = new Map<string, string>();
    for (const path of DATA) {
      const answer = await get(path);
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      before.set(path, answer.text);
    }
    // Warm: asked again, every answer comes from the caches.
    const warm = { ...reads };
    for (const path of DATA) await get(path);
    assert.deepEqual(reads, warm, 'the second round read nothing');

    first.fail('test: the file changed in place');
    for (const path of DATA) {
      const answer = await get(path);
      assert.deepEqual([answer.status, answer.retryAfter, answer.revision], [503, '1', null], `${path}: ${answer.text}`);
      assert.equal((JSON.parse(answer.text) as { code: string }).code, 'DATASET_UNAVAILABLE');
    }
    for (const path of ['/healthz', '/openapi.json']) assert.equal((await get(path)).status, 200, path);

    // A verified file of the same revision in place: served again, and every cache was rebuilt from it.
    snapshots.swap(counted(openSnapshot(file())));
    const refused = { ...reads };
    for (const path of DATA) {
      const answer = await get(path);
      assert.equal(answer.status, 200, path);
      if (!path.endsWith('health')) assert.equal(answer.text, before.get(path), path);
    }
    assert.ok(reads.collection > refused.collection, 'the collection was read again');
    assert.ok(reads.cityRecords > refused.cityRecords, 'the record list was read again');
    assert.ok(reads.servedRecordPlace > refused.servedRecordPlace, 'the record was read again');
    assert.ok(reads.changes > refused.changes, 'the change page was read again');
  });
});

describe('a failed snapshot and the compressed forms of its bodies', () => {
  it('drops every compressed form at the fault, before any swap', async () => {
    const snapshots = new SnapshotHolder(openSnapshot(copyOfSnapshot()));
    const encodings = createEncodedBodies({ servedSnapshot: () => snapshots.current, maxBytes: 8 * 1024 * 1024 });
    const listener = listenerFor(snapshots, encodings);
    const server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const path of ['/api/sample', '/api/programs/alpha']) {
        const response = await fetch(`${url}${path}`, { headers: { 'X-Api-Key': 'x', 'Accept-Encoding': 'gzip' } });
        assert.equal(response.status, 200, path);
        await response.arrayBuffer();
      }
      await encodings.settled();
      assert.ok(encodings.heldBytes() > 0, 'the bodies were compressed and held');

      snapshots.current.fail('test: the file changed in place');
      assert.equal(encodings.heldBytes(), 0, 'nothing compressed from the failed file is held');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      snapshots.close();
    }
  });
});
