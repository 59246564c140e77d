/**
 * Change-feed pages are stored per revision and query: asking the same page again reads no events, and
 * a query that must fail (a forged cursor, a cursor sent with another since, an unknown city) still fails.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createRequestListener } from '../../../gateway/app.ts';
import { DEFAULT_LIMITS } from '../../../gateway/limits/limit-table.ts';
import { MemoryRateLimiter } from '../../../gateway/limits/memory-rate-limiter.ts';
import { createGatewayLogger } from '../../../gateway/observability/gateway-logger.ts';
import { openSnapshot, type Snapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { SnapshotHolder } from '../../../gateway/snapshot/snapshot-holder.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';
import { CursorKeyring } from '../../../gateway/changes/cursor-keyring.ts';

describe('change-feed page cache', () => {
  let server: Server;
  let url: string;
  let reads = 0;
  const keyring = new CursorKeyring(Buffer.from('test-secret-for-change-cache-001'));
  const inner = openSnapshot(buildTestSnapshot());
  before(async () => {
    const counted = Object.create(inner) as Snapshot;
    counted.changes = (query) => {
      reads += 1;
      return inner.changes(query);
    };
    const listener = createRequestListener({
      snapshots: new SnapshotHolder(counted),
      lookupKey: () => ({ kind: 'valid', key: Object.freeze({ id: 'key_fixed', tier: 'commercial', cities: null, expiresAt: null }) as never }),
      limiter: new MemoryRateLimiter({ limits: DEFAULT_LIMITS, now: Date.now }),
      now: Date.now,
      infrastructure: { sharedRateLimitStorage: false, rateLimitStorageScheme: 'memory', trustedOriginProxyConfigured: false },
      trustProxy: false,
      cursorKeys: keyring,
      log: createGatewayLogger({ level: 'silent' }),
    });
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    inner.close();
  });

  const get = async (query: string) => {
    const response = await fetch(`${url}/api/changes?${query}`, { headers: { 'X-Api-Key': 'x' } });
    return { status: response.status, text: await response.text() };
  };

  it('answers a repeated page with the same bytes without reading events again', async () => {
    const first = await get('since=2026-01-01&limit=1');
    assert.equal(first.status, 200);
    const readsAfterFirst = reads;
    assert.ok(readsAfterFirst > 0);
    const again = await get('since=2026-01-01&limit=1');
    assert.equal(again.text, first.text);
    assert.equal(reads, readsAfterFirst, 'the stored page was sent');

    const cursor = (JSON.parse(first.text) as { nextCursor: string | null }).nextCursor;
    assert.ok(cursor, 'the fixture has more than one event');
    const second = await get(`since=2026-01-01&limit=1&cursor=${encodeURIComponent(cursor)}`);
    assert.equal(second.status, 200);
    assert.notEqual(second.text, first.text);
    const readsAfterSecond = reads;
    assert.equal((await get(`since=2026-01-01&limit=1&cursor=${encodeURIComponent(cursor)}`)).text, second.text);
    assert.equal(reads, readsAfterSecond);
  });

  it('forgets stored pages when the keyring adopts a secret, so later pages carry cursors under the adopted one', async () => {
    const before = await get('since=2026-01-02&limit=1');
    const cursor = (JSON.parse(before.text) as { nextCursor: string }).nextCursor;
    assert.ok(cursor.startsWith(`${keyring.signing.id}.`));
    keyring.adopt(Buffer.from('test-secret-adopted-by-the-cache'));
    const after = await get('since=2026-01-02&limit=1');
    assert.ok((JSON.parse(after.text) as { nextCursor: string }).nextCursor.startsWith(`${keyring.signing.id}.`), after.text);
    // The cursor signed before the adoption still pages here.
    assert.equal((await get(`since=2026-01-02&limit=1&cursor=${encodeURIComponent(cursor)}`)).status, 200);
  });

  it('still refuses what must be refused', async () => {
    const first = await get('since=2026-01-01&limit=1');
    const cursor = (JSON.parse(first.text) as { nextCursor: string }).nextCursor;
    const otherSince = await get(`since=2026-02-01&limit=1&cursor=${encodeURIComponent(cursor)}`);
    assert.equal(otherSince.status, 400);
    assert.match(otherSince.text, /INVALID_CURSOR/);
    const forged = await get(`since=2026-01-01&limit=1&cursor=${encodeURIComponent(`${cursor.slice(0, -2)}xx`)}`);
    assert.equal(forged.status, 400);
    // A well-formed city that is not live is a 400 UNKNOWN_CITY (issue 11 item 6; it was a 404).
    assert.equal((await get('since=2026-01-01&limit=1&city=nowhere')).status, 400);
    assert.equal((await get('since=2026-01-01&limit=1&city=nowhere')).status, 400, 'a failure is never stored');
  });
});
