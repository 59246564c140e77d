import * as assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Corpus } from '../../../build/corpus/corpus-types.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { selectLinkTargets } from '../../../build/links/select-link-targets.ts';
import { findDueReviews } from '../../../build/reviews/find-due-reviews.ts';
import { writeLinkTestCorpus } from '../../support/link-test-corpus.ts';
import { quoteDigest } from '../../../build/derive/quote-digest.ts';
import { writeFileSync } from 'node:fs';
import { makeTempDir } from '../../support/temp-dir.ts';

// The mini corpus's cited URLs, moved to .test hosts, with g-grant's URL corrected to grant-new.
const CITED = [
  'http://alpha.test/agency', 'http://alpha.test/bills', 'http://alpha.test/lead', 'http://alpha.test/old', 'http://alpha.test/ramps',
  'http://alpha.test/roof', 'http://beta.test/repair', 'http://beta.test/wx', 'http://fed.test/203k', 'http://fed.test/504',
  'http://fed.test/title1', 'http://fed.test/wap', 'http://gamma.test/grant-new', 'http://state.test/loan',
];
const check = (url: string, checkedAt: string) => ({ url, checkedAt, outcome: 'dead', httpStatus: 404 });
let corpus: Corpus;

describe('selectLinkTargets', () => {
  before(() => {
    const dir = writeLinkTestCorpus(join(makeTempDir('hra-select-'), 'corpus'), {
      linkChecks: [
        check('http://alpha.test/roof', '2026-11-16'), // 4 days before: fresh
        check('http://beta.test/wx', '2026-11-10'),
        check('http://beta.test/wx', '2026-11-14'), // 6 days before: due
        check('http://alpha.test/lead', '2026-11-19'),
        check('http://alpha.test/lead', '2026-10-01'), // an older line after a newer one changes nothing
        check('http://delta.test/', '2026-11-01'), // a pending city's URL: never selected
      ],
    });
    appendFileSync(join(dir, 'corrections.ndjson'), `${JSON.stringify({ city: 'gamma', programId: 'g-grant', field: 'url', value: 'http://gamma.test/grant-new', reason: 'page moved', date: '2026-11-05' })}\n`);
    corpus = loadCorpus(dir);
  });

  it('selects the served URLs of live cities and national records, after corrections, not checked within maxAgeDays', () => {
    const targets = selectLinkTargets(corpus, { today: '2026-11-20', maxAgeDays: 6, quotes: false });
    assert.deepEqual(targets.urls, CITED.filter((url) => url !== 'http://alpha.test/roof' && url !== 'http://alpha.test/lead'));
    assert.deepEqual([targets.cited, targets.fresh], [14, 2]);
    assert.deepEqual([...targets.previous.keys()], ['http://beta.test/wx']);
    assert.equal(targets.previous.get('http://beta.test/wx')?.checkedAt, '2026-11-14');
  });

  it('checks everything with maxAgeDays 0, and nothing twice on one day with the default', () => {
    assert.deepEqual(selectLinkTargets(corpus, { today: '2026-11-20', maxAgeDays: 0, quotes: false }).urls, CITED);
    assert.deepEqual(selectLinkTargets(corpus, { today: '2026-11-16', maxAgeDays: 1, quotes: false }).urls.includes('http://alpha.test/roof'), false);
  });

  it('reads whole pages where a review is due, by the review queue, and fetches no URL only for its review', () => {
    const reviewPages = new Set(findDueReviews(corpus, { at: '2026-11-20', withinDays: 14 }).due.map((item) => item.url));
    // alpha/a-lead is due (no review) but its URL was checked yesterday: it waits for its next visit.
    assert.ok(reviewPages.has('http://alpha.test/lead') && reviewPages.has('http://beta.test/wx') && !reviewPages.has('http://alpha.test/agency'));
    const targets = selectLinkTargets(corpus, { today: '2026-11-20', maxAgeDays: 6, quotes: false, reviewPages });
    assert.deepEqual(targets.urls, selectLinkTargets(corpus, { today: '2026-11-20', maxAgeDays: 6, quotes: false }).urls);
    assert.deepEqual([...targets.wholePages], targets.urls.filter((url) => reviewPages.has(url)));
    assert.ok(targets.wholePages.has('http://beta.test/wx') && !targets.wholePages.has('http://alpha.test/lead') && !targets.wholePages.has('http://alpha.test/agency'));
    assert.equal(selectLinkTargets(corpus, { today: '2026-11-20', maxAgeDays: 6, quotes: false }).wholePages.size, 0);
  });

  it('limits the run to `only`, reporting the ones nobody cites', () => {
    const targets = selectLinkTargets(corpus, { today: '2026-11-20', maxAgeDays: 6, only: ['http://beta.test/wx', 'http://alpha.test/roof', 'http://delta.test/', 'http://gamma.test/grant'], quotes: false });
    assert.deepEqual(targets.urls, ['http://beta.test/wx']);
    assert.deepEqual(targets.uncited, ['http://delta.test/', 'http://gamma.test/grant']);
    assert.deepEqual([targets.cited, targets.fresh], [2, 1]);
  });
});

describe('selectLinkTargets with quote checks', () => {
  // The mini corpus's amount reviews: a-roof (alpha.test/roof), b-weather (beta.test/wx), b-repair (beta.test/repair).
  const ROOF = 'Eligible homeowners may receive up to $15,000 for a new roof.';
  const quoteCheck = (over: Record<string, unknown>) => ({
    city: 'alpha', programId: 'a-roof', reviewedAt: '2026-10-20', quoteSha256: quoteDigest(ROOF), url: 'http://alpha.test/roof', finalUrl: 'http://alpha.test/roof',
    checkedAt: '2026-11-18', outcome: 'inconclusive', reason: 'page has no text', contentType: 'text/html', ...over,
  });
  const load = (checks: ReadonlyArray<Record<string, unknown>>) => {
    const dir = writeLinkTestCorpus(join(makeTempDir('hra-select-quotes-'), 'corpus'), {
      linkChecks: [...CITED, 'http://gamma.test/grant'].map((url) => check(url, '2026-11-18')), // every link fresh: only quotes make a URL due
    });
    writeFileSync(join(dir, 'evidence/quote-checks.ndjson'), checks.map((row) => `${JSON.stringify(row)}\n`).join(''));
    return loadCorpus(dir);
  };

  it('visits a URL whose link is fresh when one of its quotes is due, whatever the earlier outcome', () => {
    const targets = selectLinkTargets(load([quoteCheck({})]), { today: '2026-11-20', maxAgeDays: 6 });
    assert.deepEqual(targets.urls, ['http://beta.test/repair', 'http://beta.test/wx'], 'a-roof was checked 2 days ago');
    assert.deepEqual([...targets.wholePages], targets.urls, 'a due quote check reads its page whole');
    assert.deepEqual([targets.quotes.quotes, targets.quotes.fresh], [3, 1]);
    assert.deepEqual(targets.quotes.due.get('http://beta.test/wx')?.map((task) => [task.city, task.programId, task.reviewedAt]), [['beta', 'b-weather', '2026-06-01']]);
    assert.equal(targets.quotes.due.get('http://beta.test/wx')?.[0]?.quoteSha256, quoteDigest('Grants of up to $5,000 per home.'));
  });

  it('makes a quote due again when its check is old, or checked another quote or URL', () => {
    for (const over of [{ checkedAt: '2026-11-14' }, { quoteSha256: quoteDigest('Up to $15,000.') }, { url: 'http://alpha.test/old' }]) {
      const targets = selectLinkTargets(load([quoteCheck(over)]), { today: '2026-11-20', maxAgeDays: 6 });
      assert.ok(targets.quotes.due.has('http://alpha.test/roof'), JSON.stringify(over));
    }
  });
});
