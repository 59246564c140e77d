import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createFilteredCollectionKeys, filteredCollectionKey } from '../../../gateway/programs/filtered-collection-keys.ts';
import type { ProgramFilters } from '../../../gateway/programs/parse-program-filters.ts';
import { openSnapshot, type Snapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';

const snapshot = openSnapshot(buildTestSnapshot());
after(() => snapshot.close());

/** The same file as another revision whose aliases send `shingles` elsewhere: what a swap can bring. */
function otherRevision(aliases: ReadonlyMap<string, string>): Snapshot {
  return Object.create(snapshot, {
    revision: { value: `gm1-${'f'.repeat(64)}` },
    projectAliases: { value: aliases },
  }) as Snapshot;
}

describe('createFilteredCollectionKeys', () => {
  it('answers what filteredCollectionKey makes afresh, once per filters object and city', () => {
    const keys = createFilteredCollectionKeys();
    const filters: ProgramFilters = Object.freeze({ income: 'low', project: 'roof' });
    const first = keys(snapshot, 'alpha', filters);
    assert.deepEqual(first, filteredCollectionKey(snapshot, 'alpha', filters));
    assert.equal(keys(snapshot, 'alpha', filters), first);
    assert.deepEqual(keys(snapshot, 'beta', filters), filteredCollectionKey(snapshot, 'beta', filters));
    assert.notEqual(keys(snapshot, 'beta', filters).key, first.key);
  });

  it('makes the key again for another revision, with its aliases, also when revisions interleave', () => {
    const keys = createFilteredCollectionKeys();
    const filters: ProgramFilters = Object.freeze({ project: 'shingles' });
    const swapped = otherRevision(new Map([['shingles', 'roof']]));
    for (const served of [snapshot, swapped, snapshot, swapped]) {
      const made = keys(served, 'alpha', filters);
      assert.deepEqual(made, filteredCollectionKey(served, 'alpha', filters));
      assert.ok(made.key.includes(served.revision), 'the key names the revision it was asked in');
    }
    assert.equal(keys(swapped, 'alpha', filters).project, 'roof');
    assert.notEqual(keys(snapshot, 'alpha', filters).project, 'roof');
  });

  it('keeps an unknown project apart from no project filter', () => {
    const keys = createFilteredCollectionKeys();
    const unknown = keys(snapshot, 'alpha', Object.freeze({ special: 'x', project: 'no-such-project' }));
    const none = keys(snapshot, 'alpha', Object.freeze({ special: 'x' }));
    assert.equal(unknown.project, null);
    assert.notEqual(unknown.key, none.key);
  });

  it('stays exact past its bound of cities', () => {
    const keys = createFilteredCollectionKeys(2);
    const filters: ProgramFilters = Object.freeze({ type: 'homeowner' });
    for (let round = 0; round < 3; round++) {
      for (const city of ['alpha', 'beta', 'gamma', 'national']) assert.deepEqual(keys(snapshot, city, filters), filteredCollectionKey(snapshot, city, filters));
    }
  });
});
