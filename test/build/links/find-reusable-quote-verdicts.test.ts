/**
 * Verdict reuse (issue 39 item 1): which earlier quote checks a run carries forward instead of extracting,
 * and the lines checkQuotes writes from them, counted by the extractions asked for.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QuoteCheck } from '../../../build/corpus/corpus-types.ts';
import { corpusValidator } from '../../../build/corpus/corpus-validators.ts';
import { checkQuotes, type ExtractText } from '../../../build/links/check-quotes.ts';
import { findReusableQuoteVerdicts } from '../../../build/links/find-reusable-quote-verdicts.ts';
import type { LinkVerdict } from '../../../build/links/link-check-types.ts';
import type { QuoteTask } from '../../../build/links/select-quote-targets.ts';
import { EXTRACTOR_VERSION } from '../../../build/quotes/extractor-version.ts';

const URL = 'http://a.test/roof';
const quoteCheckValid = (line: unknown) => corpusValidator('quoteCheck')(line);
const SAME = 'b'.repeat(64);
const OTHER = 'c'.repeat(64);
const record = (n: number) => `<urn:uuid:00000000-0000-4000-8000-00000000000${n}>`;
const task = (over: Partial<QuoteTask> = {}): QuoteTask => ({ city: 'alpha', programId: 'roof', reviewedAt: '2026-11-01', quote: 'Up to $5,000.', quoteSha256: 'a'.repeat(64), ...over });
/** Last week's line for `task()`, found on payload SAME under today's extractor. */
const earlier = (over: Partial<QuoteCheck> = {}): QuoteCheck => ({
  city: 'alpha', programId: 'roof', reviewedAt: '2026-11-01', quoteSha256: 'a'.repeat(64), url: URL, finalUrl: URL, checkedAt: '2026-11-13',
  outcome: 'found', contentType: 'text/html', textLength: 40, textSha256: 'd'.repeat(64), warcRecordId: record(1), payloadSha256: SAME, extractor: EXTRACTOR_VERSION, ...over,
});
/** Today's fetch: live, read whole, archived as a revisit of payload `digest`. */
const today = (digest = SAME, over: Partial<LinkVerdict> = {}): LinkVerdict => ({
  outcome: 'live', httpStatus: 200, pageClass: 'program', reason: 'status 200', finalUrl: URL, contentType: 'text/html',
  page: { kind: 'read', bytes: new TextEncoder().encode('<p>Up to $5,000.</p>'), complete: true },
  archived: { responseRecordId: record(2), requestRecordId: record(3), responseType: 'revisit', payloadSha256: digest, file: 'warc/x.warc.gz' },
  ...over,
});

/** An extraction that counts its calls and reads the page's bytes as its text. */
function countingExtract(): { extract: ExtractText; calls: () => number } {
  let calls = 0;
  return {
    extract: async (page) => {
      calls += 1;
      return { kind: 'text', format: 'html', text: new TextDecoder().decode(page.body).replace(/<[^>]+>/g, '') };
    },
    calls: () => calls,
  };
}

describe('checkQuotes with reusable verdicts', () => {
  it('carries a conclusive verdict on the same bytes forward without extracting: today\'s record, today\'s date, the line it reuses', async () => {
    const counted = countingExtract();
    const [check] = await checkQuotes(URL, [task()], today(), '2026-11-20', counted.extract, findReusableQuoteVerdicts([earlier()], EXTRACTOR_VERSION));
    assert.equal(counted.calls(), 0);
    assert.deepEqual(check, {
      city: 'alpha', programId: 'roof', reviewedAt: '2026-11-01', quoteSha256: 'a'.repeat(64), url: URL, finalUrl: URL, checkedAt: '2026-11-20',
      outcome: 'found', contentType: 'text/html', textLength: 40, textSha256: 'd'.repeat(64),
      warcRecordId: record(2), payloadSha256: SAME, extractor: EXTRACTOR_VERSION, reuses: { checkedAt: '2026-11-13', warcRecordId: record(1) },
    });
    assert.equal(quoteCheckValid(check), true, JSON.stringify(corpusValidator('quoteCheck').errors));
  });

  it('carries a not-found verdict forward with the amounts the page states', async () => {
    const amounts = [{ text: '$7,500', value: 7500 }];
    const [check] = await checkQuotes(URL, [task()], today(), '2026-11-20', countingExtract().extract,
      findReusableQuoteVerdicts([earlier({ outcome: 'not-found', statedAmounts: amounts })], EXTRACTOR_VERSION));
    assert.deepEqual([check?.outcome, check?.statedAmounts, check?.reuses?.checkedAt], ['not-found', amounts, '2026-11-13']);
  });

  // [case, the earlier lines, today's verdict, the task]: each is judged anew, extracting once.
  const anew: ReadonlyArray<[string, QuoteCheck[], LinkVerdict, QuoteTask]> = [
    ['a changed payload', [earlier()], today(OTHER), task()],
    ['another review of the record', [earlier()], today(), task({ reviewedAt: '2026-11-02' })],
    ['another quote of the review', [earlier()], today(), task({ quoteSha256: 'e'.repeat(64) })],
    ['another EXTRACTOR_VERSION', [earlier({ extractor: '1+pdfjs-dist-5.4.449' })], today(), task()],
    ['an inconclusive earlier verdict', [earlier({ outcome: 'inconclusive', reason: 'html text too short (javascript shell?)', textLength: undefined, textSha256: undefined })], today(), task()],
    ['a conclusive fetch since re-derived inconclusive', [earlier(), earlier({ outcome: 'inconclusive', reason: 'pdf has no text layer', textLength: undefined, textSha256: undefined, rederived: { extractor: EXTRACTOR_VERSION, from: '2026-11-13' } })], today(), task()],
    ['the same bytes under another content type', [earlier()], today(SAME, { contentType: 'text/plain' }), task()],
    ['the same bytes at another final URL', [earlier()], today(SAME, { finalUrl: 'http://a.test/moved' }), task()],
    ['a page not archived', [earlier()], today(SAME, { archived: undefined }), task()],
    ['another cited URL', [earlier({ url: 'http://a.test/other' })], today(), task()],
  ];
  for (const [name, lines, verdict, quoteTask] of anew) {
    it(`judges anew: ${name}`, async () => {
      const counted = countingExtract();
      const [check] = await checkQuotes(URL, [quoteTask], verdict, '2026-11-20', counted.extract, findReusableQuoteVerdicts(lines, EXTRACTOR_VERSION));
      assert.equal(counted.calls(), 1);
      assert.equal(check?.reuses, undefined);
      assert.equal(check?.outcome, 'found');
      assert.equal(check?.textLength, 'Up to $5,000.'.length);
    });
  }

  it('extracts once for the tasks left, asking only their quotes, and keeps the lines in task order', async () => {
    const asked: string[][] = [];
    const extract: ExtractText = async (_page, quotes) => {
      asked.push([...quotes]);
      return { kind: 'text', format: 'html', text: 'Up to $5,000.' };
    };
    const other = task({ programId: 'porch', quote: 'Up to $9,000.', quoteSha256: 'f'.repeat(64) });
    const checks = await checkQuotes(URL, [other, task()], today(), '2026-11-20', extract, findReusableQuoteVerdicts([earlier()], EXTRACTOR_VERSION));
    assert.deepEqual(asked, [['Up to $9,000.']]);
    assert.deepEqual(checks.map((check) => [check.programId, check.outcome, check.reuses !== undefined]), [['porch', 'not-found', false], ['roof', 'found', true]]);
  });

  it('reuses the latest verdict on a digest, and a reused line can be reused in turn', async () => {
    const older = earlier({ checkedAt: '2026-11-06', warcRecordId: record(4), outcome: 'not-found', statedAmounts: [] });
    const reused = earlier({ checkedAt: '2026-11-13', warcRecordId: record(5), reuses: { checkedAt: '2026-11-06', warcRecordId: record(4) } });
    const [check] = await checkQuotes(URL, [task()], today(), '2026-11-20', countingExtract().extract, findReusableQuoteVerdicts([older, reused], EXTRACTOR_VERSION));
    assert.deepEqual([check?.outcome, check?.reuses], ['found', { checkedAt: '2026-11-13', warcRecordId: record(5) }]);
  });
});

describe('quoteCheckSchema reuses', () => {
  it('refuses a reusing line that is inconclusive, re-derived or without its record', () => {
    const line = { ...earlier(), reuses: { checkedAt: '2026-11-13', warcRecordId: record(1) } };
    assert.equal(quoteCheckValid(line), true);
    const { textLength: _length, textSha256: _sha, ...inconclusive } = { ...line, outcome: 'inconclusive', reason: 'x' };
    assert.equal(quoteCheckValid(inconclusive), false);
    assert.equal(quoteCheckValid({ ...line, rederived: { extractor: EXTRACTOR_VERSION, from: '2026-11-13' } }), false);
    const { warcRecordId: _id, ...unbound } = line;
    assert.equal(quoteCheckValid(unbound), false);
  });
});
