import * as assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { createEncodedBodies, MAX_COMPRESSIONS_IN_FLIGHT, MIN_COMPRESSED_BODY_BYTES } from '../../../gateway/encoding/encoded-bodies.ts';
import { openSnapshot, type Snapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';

/** A JSON body of about `bytes` that compresses well but not to nothing. */
const jsonBody = (bytes: number, seed: number) => Buffer.from(JSON.stringify(Array.from({ length: Math.ceil(bytes / 40) }, (_, index) => ({ id: `${seed}-${index}`, name: 'program' }))));

describe('createEncodedBodies', () => {
  const file = buildTestSnapshot();
  const first = openSnapshot(file);
  const second = openSnapshot(file);
  after(() => {
    first.close();
    second.close();
  });

  it('serves the first request as it is, then the stored form, which decodes to the body', async () => {
    let served: Snapshot = first;
    const store = createEncodedBodies({ servedSnapshot: () => served, maxBytes: 1_000_000 });
    const body = jsonBody(20_000, 1);
    assert.equal(store.lookup(first, body, 'br'), undefined);
    assert.equal(store.lookup(first, body, 'gzip'), undefined);
    await store.settled();
    assert.deepEqual(brotliDecompressSync(store.lookup(first, body, 'br') ?? assert.fail('no br form')), body);
    assert.deepEqual(gunzipSync(store.lookup(first, body, 'gzip') ?? assert.fail('no gzip form')), body);
    // Strings are found by value.
    const text = body.toString();
    assert.equal(store.lookup(first, text, 'gzip'), undefined);
    await store.settled();
    assert.deepEqual(gunzipSync(store.lookup(first, `${text}`, 'gzip') ?? assert.fail('no gzip form of the text')), body);
    // A swap drops every form of the previous snapshot, before and after a request comes.
    assert.ok(store.heldBytes() > 0);
    served = second;
    assert.equal(store.heldBytes(), 0);
    assert.equal(store.lookup(first, body, 'br'), undefined, 'a reply pinned to the old snapshot is sent as it is');
    assert.equal(store.lookup(second, body, 'br'), undefined, 'the new snapshot compresses its own');
    await store.settled();
    assert.ok(store.lookup(second, body, 'br'));
    store.drop();
    assert.equal(store.heldBytes(), 0);
    assert.equal(store.lookup(second, body, 'br'), undefined, 'dropped: compressed again on demand');
    await store.settled();
  });

  it('never compresses a body under the threshold', async () => {
    const store = createEncodedBodies({ servedSnapshot: () => first, maxBytes: 1_000_000 });
    const small = Buffer.from('x'.repeat(MIN_COMPRESSED_BODY_BYTES - 1));
    assert.equal(store.lookup(first, small, 'br'), undefined);
    await store.settled();
    assert.equal(store.lookup(first, small, 'br'), undefined);
    assert.equal(store.heldBytes(), 0);
  });

  it('holds no more than its budget, evicting the least recently used', async () => {
    const maxBytes = 20_000;
    const store = createEncodedBodies({ servedSnapshot: () => first, maxBytes });
    const bodies = Array.from({ length: 40 }, (_, index) => jsonBody(30_000, index));
    for (const body of bodies) {
      store.lookup(first, body, 'gzip');
      await store.settled();
      assert.ok(store.heldBytes() <= maxBytes, `${store.heldBytes()} > ${maxBytes}`);
    }
    assert.ok(store.lookup(first, bodies.at(-1) ?? assert.fail(), 'gzip'), 'the latest form is held');
    assert.equal(store.lookup(first, bodies[0] ?? assert.fail(), 'gzip'), undefined, 'the oldest was evicted');
    await store.settled();
  });

  it('runs a bounded number of compressions at once, and takes up the rest when asked again', async () => {
    const store = createEncodedBodies({ servedSnapshot: () => first, maxBytes: 10_000_000 });
    const bodies = Array.from({ length: MAX_COMPRESSIONS_IN_FLIGHT * 3 }, (_, index) => jsonBody(5_000, 100 + index));
    for (const body of bodies) store.lookup(first, body, 'br');
    await store.settled();
    const stored = bodies.filter((body) => store.lookup(first, body, 'br') !== undefined);
    assert.equal(stored.length, MAX_COMPRESSIONS_IN_FLIGHT, 'only the first bodies were compressed');
    // Those turned away were not marked: asked again, they are compressed.
    for (let round = 0; round < 3; round++) {
      for (const body of bodies) store.lookup(first, body, 'br');
      await store.settled();
    }
    assert.ok(bodies.every((body) => store.lookup(first, body, 'br') !== undefined));
  });

  it('prepares the precomputed bodies of a snapshot before it is served, within the budget, taking over forms of the same bodies', async () => {
    let served: Snapshot = first;
    const maxBytes = 40_000;
    const store = createEncodedBodies({ servedSnapshot: () => served, maxBytes });
    const kept = jsonBody(30_000, 200);
    const perRevision = new Map<Snapshot, Buffer>([[first, jsonBody(30_000, 201)], [second, jsonBody(30_000, 202)]]);
    const many = Array.from({ length: 20 }, (_, index) => jsonBody(20_000, 300 + index));
    store.precompute((snapshot) => [kept, perRevision.get(snapshot) ?? assert.fail(), ...many]);

    const atStart = await store.prepare(first);
    assert.ok(atStart.compressed > 0 && atStart.skipped > 0, JSON.stringify(atStart));
    assert.equal(atStart.compressed + atStart.skipped, 2 * 22);
    assert.ok(store.heldBytes() <= maxBytes, `${store.heldBytes()} > ${maxBytes}`);
    assert.equal(atStart.heldBytes, store.heldBytes());
    // Made before any request, in both codings, for the first bodies that fit.
    assert.deepEqual(brotliDecompressSync(store.lookup(first, kept, 'br') ?? assert.fail('no br form ahead of use')), kept);
    assert.deepEqual(gunzipSync(store.lookup(first, kept, 'gzip') ?? assert.fail('no gzip form ahead of use')), kept);

    // The next revision's are made while the first is served, sharing the budget with its forms, and
    // served from the swap on.
    const next = await store.prepare(second);
    assert.ok(next.reused >= 2, `the same body's forms are taken over: ${JSON.stringify(next)}`);
    assert.ok(store.heldBytes() <= maxBytes, `the served forms and the prepared ones share the budget: ${store.heldBytes()} > ${maxBytes}`);
    assert.equal(store.lookup(second, kept, 'br'), undefined, 'not served before the swap');
    served = second;
    const revisionBody = perRevision.get(second) ?? assert.fail();
    assert.deepEqual(brotliDecompressSync(store.lookup(second, revisionBody, 'br') ?? assert.fail('no br form after the swap')), revisionBody);
    assert.ok(store.lookup(second, kept, 'gzip'));
    assert.equal(store.lookup(first, kept, 'br'), undefined, 'the old snapshot\'s replies go as they are');
    assert.ok(store.heldBytes() <= maxBytes, `${store.heldBytes()} > ${maxBytes}`);

    // Two swaps with no request between them: the forms prepared for the first are still taken over.
    served = first;
    const quiet = createEncodedBodies({ servedSnapshot: () => served, maxBytes });
    quiet.precompute((snapshot) => [kept, perRevision.get(snapshot) ?? assert.fail()]);
    await quiet.prepare(first);
    assert.equal((await quiet.prepare(second)).reused, 2);

    // At start the snapshot being prepared is already the holder's: the bodies that need no snapshot are
    // prepared first (while its file is hashed), taken over by the full prepare, and served at once.
    const starting = createEncodedBodies({ servedSnapshot: () => first, maxBytes });
    starting.precompute((snapshot, snapshotIndependentOnly) => (snapshotIndependentOnly ? [kept] : [kept, perRevision.get(snapshot) ?? assert.fail()]));
    assert.equal((await starting.prepare(first, { snapshotIndependentOnly: true })).compressed, 2);
    const full = await starting.prepare(first);
    assert.deepEqual([full.compressed, full.reused], [2, 2]);
    assert.ok(starting.lookup(first, kept, 'br') && starting.lookup(first, perRevision.get(first) ?? assert.fail(), 'gzip'), 'served without a request first');
    await store.settled();
  });
});
