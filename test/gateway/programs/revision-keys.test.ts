import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRevisionKeys } from '../../../gateway/programs/revision-keys.ts';

describe('createRevisionKeys', () => {
  it('makes the same text as concatenation, for every revision, city and record asked, in any order', () => {
    const keys = createRevisionKeys(3);
    const asked: [string, string, string?][] = [];
    for (const revision of ['gm1-a', 'gm1-b']) {
      for (const city of ['alpha', 'beta', 'gamma', 'delta', 'alpha']) {
        asked.push([revision, city], [revision, city, 'p-1'], [revision, city, 'p-2']);
      }
    }
    // Interleaved revisions (a request pinned to the old file during a swap) and more keys than the bound.
    const interleaved = asked.flatMap((entry, index) => [entry, asked[asked.length - 1 - index] as [string, string, string?]]);
    for (const [revision, city, programId] of interleaved) {
      if (programId === undefined) assert.equal(keys.city(revision, city), `${revision}\u0000${city}`);
      else assert.equal(keys.record(revision, city, programId), `${revision}\u0000${city}\u0000${programId}`);
    }
  });

  it('hands out the remembered key while the revision holds', () => {
    const keys = createRevisionKeys();
    const first = keys.city('gm1-a', 'alpha');
    assert.equal(keys.city('gm1-a', 'alpha'), first);
    assert.equal(keys.record('gm1-a', 'alpha', 'x'), 'gm1-a\u0000alpha\u0000x');
    assert.notEqual(keys.city('gm1-b', 'alpha'), first);
  });
});
