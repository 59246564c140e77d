import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createCollectionFilter } from '../../../gateway/programs/filter-collection.ts';
import { createProgramBodies } from '../../../gateway/programs/program-bodies.ts';
import { CACHE_SHARES, splitCacheBudget } from '../../../gateway/programs/cache-budget.ts';
import { openSnapshot, type Snapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';

const snapshot = openSnapshot(buildTestSnapshot());
after(() => snapshot.close());

/** The snapshot, counting how often each read reaches SQLite. */
function countingSnapshot(inner: Snapshot) {
  const reads = { collection: 0, cityRecords: 0, servedRecordPlace: 0 };
  const counted = Object.create(inner) as Snapshot;
  Object.assign(counted, {
    collection: (city: string) => (reads.collection++, inner.collection(city)),
    cityRecords: (city: string) => (reads.cityRecords++, inner.cityRecords(city)),
    servedRecordPlace: (city: string, id: string) => (reads.servedRecordPlace++, inner.servedRecordPlace(city, id)),
  });
  return { counted, reads };
}

function bodies(totalBytes: number) {
  const budget = splitCacheBudget(totalBytes);
  return createProgramBodies(createCollectionFilter(budget), budget);
}

describe('createProgramBodies', () => {
  const cases = [
    ['alpha', {}], ['beta', {}], ['national', {}], ['alpha', { type: 'homeowner' }], ['alpha', { project: 'roof' }], ['beta', { income: 'low' }],
  ] as const;

  it('answers the same bytes with no room to cache as with plenty', () => {
    const roomy = bodies(64 * 2 ** 20);
    const cramped = bodies(4);
    for (const [city, query] of cases) assert.ok(roomy.collection(snapshot, city, query).equals(cramped.collection(snapshot, city, query)), `${city} ${JSON.stringify(query)}`);
    assert.ok(roomy.record(snapshot, 'alpha', 'a-roof').equals(cramped.record(snapshot, 'alpha', 'a-roof')));
  });

  it('reads SQLite once per body while the budget holds it, and again once the budget pushed it out', () => {
    const { counted, reads } = countingSnapshot(snapshot);
    const roomy = bodies(64 * 2 ** 20);
    for (let round = 0; round < 3; round++) {
      roomy.collection(counted, 'alpha', {});
      roomy.collection(counted, 'alpha', { type: 'homeowner' });
      roomy.collection(counted, 'alpha', { project: 'roof' });
      roomy.record(counted, 'alpha', 'a-roof');
    }
    assert.deepEqual(reads, { collection: 1, cityRecords: 1, servedRecordPlace: 1 });

    const alpha = snapshot.collection('alpha')?.body.length ?? 0;
    const beta = snapshot.collection('beta')?.body.length ?? 0;
    // Room for about one unfiltered collection: alternating two cities evicts each time.
    const tight = bodies(Math.ceil((Math.max(alpha, beta) + 600) / CACHE_SHARES.unfilteredBytes));
    const before = reads.collection;
    for (let round = 0; round < 3; round++) {
      tight.collection(counted, 'alpha', {});
      tight.collection(counted, 'beta', {});
    }
    assert.equal(reads.collection - before, 6);
  });

  it('serves each revision its own bytes when requests of two revisions interleave (a swap in progress)', () => {
    const swapped = Object.create(snapshot) as Snapshot;
    const other = (city: string) => Buffer.from(`{"other":${JSON.stringify(city)}}`);
    Object.defineProperty(swapped, 'revision', { value: `${snapshot.revision}-next` });
    Object.assign(swapped, { collection: (city: string) => ({ ...snapshot.collection(city), body: other(city) }) });
    const shared = bodies(64 * 2 ** 20);
    for (let round = 0; round < 3; round++) {
      for (const city of ['alpha', 'beta']) {
        assert.ok(shared.collection(snapshot, city, {}).equals(snapshot.collection(city)?.body ?? Buffer.alloc(0)), `${city} round ${round}`);
        assert.ok(shared.collection(swapped, city, {}).equals(other(city)), `${city} round ${round}, other revision`);
      }
    }
  });

  it('misses a withheld id exactly as an id that never existed: the same snapshot reads, the same 404', () => {
    // Every read of the snapshot, with the id masked, and whether it found anything.
    const trace = (id: string) => {
      const reads: string[] = [];
      const traced = new Proxy(snapshot, {
        get(target, name) {
          const member: unknown = Reflect.get(target, name);
          if (typeof member !== 'function') return member;
          return (...args: unknown[]) => {
            const result: unknown = member.apply(target, args);
            reads.push(`${String(name)}(${args.map((arg) => (arg === id ? '<id>' : String(arg))).join(', ')}) -> ${result === undefined ? 'nothing' : 'found'}`);
            return result;
          };
        },
      });
      let thrown: unknown;
      assert.throws(() => bodies(2 ** 20).record(traced, 'alpha', id), (error: unknown) => ((thrown = error), true));
      return { reads, thrown: JSON.stringify(thrown, ['status', 'code', 'message']) };
    };
    const unknown = trace('a-never');
    assert.deepEqual(unknown.reads, ['servedRecordPlace(alpha, <id>) -> nothing']);
    for (const withheld of ['a-quar', 'a-bills']) assert.deepEqual(trace(withheld), unknown, withheld);
  });

  it('throws the spec\'s 404 for a city outside the live scope and a withheld record', () => {
    const all = bodies(2 ** 20);
    assert.throws(() => all.collection(snapshot, 'delta', {}), { status: 404, code: 'NOT_FOUND' });
    assert.throws(() => all.collection(snapshot, 'nowhere', { type: 'homeowner' }), { status: 404, code: 'NOT_FOUND' });
    assert.throws(() => all.record(snapshot, 'alpha', 'a-quar'), { status: 404, code: 'NOT_FOUND' });
  });
});
