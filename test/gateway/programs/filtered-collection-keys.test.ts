import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createCollectionFilter } from '../../../gateway/programs/filter-collection.ts';
import { createFilteredCollectionKeys, filteredCollectionKey } from '../../../gateway/programs/filtered-collection-keys.ts';
import type { ProgramFilters } from '../../../gateway/programs/parse-program-filters.ts';
import { openSnapshot, type Snapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';

const snapshot = openSnapshot(buildTestSnapshot());
after(() => snapshot.close());

/** The same file as another revision whose aliases send `shingles` to `roof`: what a swap can bring. */
function otherRevision(aliases: ReadonlyMap<string, string>): Snapshot {
  return Object.create(snapshot, {
    revision: { value: `gm1-${'f'.repeat(64)}` },
    projectAliases: { value: aliases },
  }) as Snapshot;
}

describe('filteredCollectionKey', () => {
  it('keeps an unknown project apart from no project filter', () => {
    const unknown = filteredCollectionKey(snapshot, 'alpha', { special: 'x', project: 'no-such-project' });
    const none = filteredCollectionKey(snapshot, 'alpha', { special: 'x' });
    assert.equal(unknown.project, null);
    assert.notEqual(unknown.key, none.key);
  });
});

describe('createFilteredCollectionKeys', () => {
  it('finds what it remembered for the same filters object, city and revision only', () => {
    const keys = createFilteredCollectionKeys();
    const filters: ProgramFilters = Object.freeze({ income: 'low' });
    assert.equal(keys.find(snapshot, 'alpha', filters), undefined);
    const made = filteredCollectionKey(snapshot, 'alpha', filters);
    keys.remember(snapshot, 'alpha', filters, made);
    assert.equal(keys.find(snapshot, 'alpha', filters), made);
    assert.equal(keys.find(snapshot, 'beta', filters), undefined);
    assert.equal(keys.find(snapshot, 'alpha', Object.freeze({ income: 'low' })), undefined, 'another filters object is another entry');
  });

  it('finds nothing of one revision in another, also when revisions interleave (a swap)', () => {
    const keys = createFilteredCollectionKeys();
    const filters: ProgramFilters = Object.freeze({ project: 'shingles' });
    const swapped = otherRevision(new Map([['shingles', 'roof']]));
    for (const served of [snapshot, swapped, snapshot, swapped]) {
      const found = keys.find(served, 'alpha', filters);
      assert.equal(found, undefined, 'the last revision remembered was the other one');
      keys.remember(served, 'alpha', filters, filteredCollectionKey(served, 'alpha', filters));
      assert.ok(keys.find(served, 'alpha', filters)?.key.includes(served.revision));
    }
  });

  it('starts over past its bound', () => {
    const keys = createFilteredCollectionKeys(2);
    const filters = ['homeowner', 'renter', 'landlord'].map((type) => Object.freeze({ type }) as ProgramFilters);
    for (const each of filters) keys.remember(snapshot, 'alpha', each, filteredCollectionKey(snapshot, 'alpha', each));
    assert.equal(keys.find(snapshot, 'alpha', filters[0] as ProgramFilters), undefined);
    assert.ok(keys.find(snapshot, 'alpha', filters[2] as ProgramFilters) !== undefined);
  });
});

describe('createCollectionFilter with remembered keys', () => {
  it('answers a swapped revision from its own aliases, for the same filters object', () => {
    const filter = createCollectionFilter({ filteredBytes: 1 << 20, recordListBytes: 1 << 20 });
    const filters: ProgramFilters = Object.freeze({ project: 'shingles' });
    const swapped = otherRevision(new Map([['shingles', 'roof']]));
    for (let round = 0; round < 3; round++) {
      // Asked twice each, so the second is a cache hit whose key is remembered.
      for (const served of [snapshot, snapshot, swapped, swapped]) {
        const body = JSON.parse(filter(served, 'alpha', filters).toString()) as { datasetRevision: string; programs: { id: string }[] };
        const fresh = JSON.parse(createCollectionFilter({ filteredBytes: 1 << 20, recordListBytes: 1 << 20 })(served, 'alpha', filters).toString()) as typeof body;
        assert.deepEqual(body, fresh);
        assert.equal(body.datasetRevision, served.revision);
      }
    }
  });
});
