/**
 * `links check` draws the review queue's pages without deriving a record (visit-due-records.ts): the rule
 * must still see each record as the derivation serves it (exclusion policy, URL after corrections), and its
 * pages and count must be those of `reviews due`'s queue and of the progress line as they were.
 */
import * as assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import type { Corpus } from '../../../build/corpus/corpus-types.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { readCityPrograms } from '../../../build/corpus/read-city-programs.ts';
import { recordKey } from '../../../build/derive/apply-corrections.ts';
import { createRecordDeriver } from '../../../build/derive/derive-record.ts';
import { findDueReviewPages } from '../../../build/reviews/find-due-review-pages.ts';
import { findDueReviews } from '../../../build/reviews/find-due-reviews.ts';
import { visitDueRecords } from '../../../build/reviews/visit-due-records.ts';

const demoCorpus = fileURLToPath(new URL('../../../corpus', import.meta.url));
let corpus: Corpus;

/** The demo corpus with one served record's URL corrected, so the rule must read URLs after corrections. */
function withUrlCorrection(loaded: Corpus): { corpus: Corpus; key: string } {
  for (const city of loaded.cities) {
    if (city.status !== 'live') continue;
    const row = readCityPrograms(loaded, city.slug).find((stored) => typeof stored.url === 'string');
    if (row === undefined) continue;
    const correction = { city: city.slug, programId: row.id, field: 'url' as const, value: 'http://moved.test/page', reason: 'page moved', date: '2026-11-01' };
    return { corpus: { ...loaded, corrections: [...loaded.corrections, correction] as Corpus['corrections'] }, key: recordKey(city.slug, row.id) };
  }
  throw new Error('the demo corpus has no live record with a URL');
}

describe('findDueReviewPages', () => {
  before(() => {
    corpus = loadCorpus(demoCorpus);
  });

  it('judges the records the derivation serves with a URL, and by the URL it serves', () => {
    // Without reviews every served record with a URL is due ("no-review"): the visited set is the rule's view of "served".
    const { corpus: corrected, key } = withUrlCorrection({ ...corpus, sourceReviews: [] });
    const derive = createRecordDeriver(corrected);
    const served = new Map<string, string>();
    let withheld = 0;
    for (const city of corrected.cities) {
      if (city.status !== 'live') continue;
      for (const stored of readCityPrograms(corrected, city.slug)) {
        const record = derive(city.slug, stored);
        if (record.exclusion === 'served' && typeof record.url === 'string') served.set(recordKey(city.slug, stored.id), record.url);
        else if (typeof record.url === 'string') withheld += 1;
      }
    }
    assert.ok(withheld > 0, 'no record with a URL is withheld by the policy: the test would not see the exclusion rule');
    assert.equal(served.get(key), 'http://moved.test/page');
    const visited = new Map<string, string>();
    visitDueRecords(corrected, { at: '2026-11-20', withinDays: 14 }, ({ city, stored, url, reason }) => {
      assert.equal(reason, 'no-review');
      visited.set(recordKey(city, stored.id), url);
    });
    assert.deepEqual(visited, served);
  });

  for (const at of ['2026-11-16', '2027-03-01', '2027-12-01']) {
    it(`gives the pages of the reviews due queue and the live cities' record count, at ${at}`, () => {
      const { corpus: corrected } = withUrlCorrection(corpus);
      const queue = findDueReviews(corrected, { at, withinDays: 14 });
      const pages = findDueReviewPages(corrected, { at, withinDays: 14 });
      assert.ok(queue.due.length > 0);
      assert.deepEqual([...pages.urls].sort(), [...new Set(queue.due.map((item) => item.url))].sort());
      // The progress line's "records derived": every program id of a live city, as it was counted from programIds.
      const live = corrected.cities.filter((city) => city.status === 'live');
      assert.equal(pages.judged, live.reduce((sum, city) => sum + (corrected.programIds.get(city.slug)?.size ?? 0), 0));
      const records = new Set([...corrected.programIds.get(live[0]!.slug)!].slice(0, 3).map((id) => recordKey(live[0]!.slug, id)));
      assert.equal(findDueReviewPages(corrected, { at, withinDays: 14, records }).judged, 3);
    });
  }
});
