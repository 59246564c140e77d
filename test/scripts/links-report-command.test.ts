/** `hra links report` end to end: the real CLI over a corpus whose attempts exercise the three-strikes rule. */
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { writeLinkTestCorpus } from '../support/link-test-corpus.ts';
import { lastLine, runHraAsync } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

// a-roof and a-furnace were reviewed 2026-10-20: stale on 2027-01-18, within 14 days of this.
const AT = '2027-01-10T09:00:00Z';

const attempt = (url: string, checkedAt: string, outcome: string, httpStatus: number | null) => ({
  url, checkedAt, outcome, httpStatus, ...(outcome === 'live' ? { pageClass: 'program' } : {}),
});

describe('hra links report', () => {
  let corpus = '';
  before(() => {
    corpus = writeLinkTestCorpus(join(makeTempDir('hra-links-report-'), 'corpus'), {
      // link-1 cites the same page as a-roof: both programs are listed.
      extraUrls: ['http://alpha.test/roof'],
      linkChecks: [
        // Three strikes on three dates; the inconclusive attempt between them does not count.
        attempt('http://alpha.test/roof', '2026-10-26', 'dead', 404),
        attempt('http://alpha.test/roof', '2026-11-02', 'inconclusive', 503),
        attempt('http://alpha.test/roof', '2026-11-09', 'dead', 410),
        attempt('http://alpha.test/roof', '2026-11-16', 'dead', 404),
        // Three 404s but on two dates: dead now, not likely closed.
        attempt('http://state.test/loan', '2026-11-09', 'dead', 404),
        attempt('http://state.test/loan', '2026-11-16', 'dead', 404),
        attempt('http://state.test/loan', '2026-11-16', 'dead', 404),
        // Back to live at the last check: neither list.
        attempt('http://beta.test/wx', '2026-10-26', 'dead', 404),
        attempt('http://beta.test/wx', '2026-11-02', 'dead', 404),
        attempt('http://beta.test/wx', '2026-11-09', 'dead', 404),
        attempt('http://beta.test/wx', '2026-11-16', 'live', 200),
        // A soft 404 is dead but not a 404: it breaks the strikes.
        attempt('http://gamma.test/grant', '2026-11-02', 'dead', 404),
        attempt('http://gamma.test/grant', '2026-11-09', 'dead', 404),
        attempt('http://gamma.test/grant', '2026-11-16', 'dead', 200),
        attempt('http://alpha.test/ramps', '2026-11-16', 'bot-blocked', 403),
        // Inconclusive last: neither dead nor blocked now (it reads `unchecked`).
        attempt('http://fed.test/504', '2026-11-09', 'dead', 404),
        attempt('http://fed.test/504', '2026-11-16', 'inconclusive', null),
        // A pending city's URL is not served, so not reported.
        ...['2026-11-02', '2026-11-09', '2026-11-16'].map((date) => attempt('http://delta.test/', date, 'dead', 404)),
      ],
    });
  });

  it('lists reviews turning stale within 14 days of --at, likely-closed programs with their three dates, and every URL now dead or bot-blocked', async () => {
    const run = await runHraAsync(['links', 'report', '--corpus', corpus, '--at', AT, '--json']);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(lastLine(run.stdout)), {
      ok: true,
      at: '2027-01-10',
      quotesNotFound: [],
      reviewedAmounts: [],
      staleSoon: [
        { city: 'alpha', programId: 'a-furnace', reviewedAt: '2026-10-20', kind: 'identity', staleOn: '2027-01-18' },
        { city: 'alpha', programId: 'a-roof', reviewedAt: '2026-10-20', kind: 'amount', staleOn: '2027-01-18' },
      ],
      likelyClosed: [
        { city: 'alpha', programId: 'a-roof', url: 'http://alpha.test/roof', dates: ['2026-10-26', '2026-11-09', '2026-11-16'] },
        { city: 'alpha', programId: 'link-1', url: 'http://alpha.test/roof', dates: ['2026-10-26', '2026-11-09', '2026-11-16'] },
      ],
      problems: [
        { url: 'http://alpha.test/ramps', outcome: 'bot-blocked', httpStatus: 403, checkedAt: '2026-11-16', programs: [{ city: 'alpha', programId: 'a-ramp' }] },
        { url: 'http://alpha.test/roof', outcome: 'dead', httpStatus: 404, checkedAt: '2026-11-16', programs: [{ city: 'alpha', programId: 'a-roof' }, { city: 'alpha', programId: 'link-1' }] },
        { url: 'http://gamma.test/grant', outcome: 'dead', httpStatus: 200, checkedAt: '2026-11-16', programs: [{ city: 'gamma', programId: 'g-grant' }] },
        { url: 'http://state.test/loan', outcome: 'dead', httpStatus: 404, checkedAt: '2026-11-16', programs: [{ city: 'beta', programId: 'state-loan' }] },
      ],
    });
  });

  it('without --at looks ahead from the manifest\'s asOf, the date the build counts review staleness from', async () => {
    const manifest = join(corpus, 'manifest.json');
    const original = readFileSync(manifest, 'utf8');
    try {
      const report = async () => {
        const run = await runHraAsync(['links', 'report', '--corpus', corpus, '--json']);
        assert.equal(run.status, 0, run.stderr);
        return JSON.parse(lastLine(run.stdout)) as { at: string; staleSoon: Array<{ programId: string }> };
      };
      const atAsOf = await report();
      assert.equal(atAsOf.at, (JSON.parse(original) as { asOf: string }).asOf);
      assert.deepEqual(atAsOf.staleSoon, [], 'the reviews of 2026-10-20 turn stale on 2027-01-18, over 14 days after asOf');
      writeFileSync(manifest, original.replace(/"asOf": "[\d-]+"/, '"asOf": "2027-01-10"'));
      const moved = await report();
      assert.equal(moved.at, '2027-01-10');
      assert.deepEqual(moved.staleSoon.map((entry) => entry.programId), ['a-furnace', 'a-roof']);
    } finally {
      writeFileSync(manifest, original);
    }
  });

  it('prints the same as text for a maintainer, per city', async () => {
    const run = await runHraAsync(['links', 'report', '--corpus', corpus, '--at', AT]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, [
      'weekly verification report as of 2027-01-10: 0 quotes no longer found, 0 reviewed quotes stating another amount, 2 reviews turning stale within 14 days, 2 likely closed, 4 dead or bot-blocked URLs',
      'alpha',
      '  reviews turning stale within 14 days: 2',
      '    alpha/a-furnace  identity review of 2026-10-20, stale on 2027-01-18',
      '    alpha/a-roof  amount review of 2026-10-20, stale on 2027-01-18',
      '  likely closed (404 or 410 at each of the last three check dates): 2',
      '    alpha/a-roof  http://alpha.test/roof  2026-10-26, 2026-11-09, 2026-11-16',
      '    alpha/link-1  http://alpha.test/roof  2026-10-26, 2026-11-09, 2026-11-16',
      '  dead or bot-blocked at their latest attempt: 2',
      '    bot-blocked (403, 2026-11-16)  http://alpha.test/ramps  cited by alpha/a-ramp',
      '    dead (404, 2026-11-16)  http://alpha.test/roof  cited by alpha/a-roof, alpha/link-1',
      'beta',
      '  dead or bot-blocked at their latest attempt: 1',
      '    dead (404, 2026-11-16)  http://state.test/loan  cited by beta/state-loan',
      'gamma',
      '  dead or bot-blocked at their latest attempt: 1',
      '    dead (200, 2026-11-16)  http://gamma.test/grant  cited by gamma/g-grant',
      '',
    ].join('\n'));
  });
});
