import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { isDigestFailure, openArchivedResponses, type ArchivedResponses } from '../../../build/archive/open-archived-responses.ts';
import { openArchiveWriter, type ArchivedExchange, type ArchiveHeader } from '../../../build/archive/open-archive-writer.ts';
import { replayArchivedVerdicts, type ReplayOptions } from '../../../build/archive/replay-archived-verdicts.ts';
import type { LinkCheck, QuoteCheck, SourceReview } from '../../../build/corpus/corpus-types.ts';
import { quoteDigest } from '../../../build/derive/quote-digest.ts';
import { createPageTextExtractor, type PageTextExtractor } from '../../../build/quotes/create-page-text-extractor.ts';
import { editArchivedPayload } from '../../support/edit-archived-payload.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-replay-');
const CHECKED_AT = '2026-11-20';
const REVIEWED_AT = '2026-11-01';
const FILLER = '<p>The Housing Department repairs roofs, furnaces and porches for owner-occupants across the city. Applications are reviewed in the order they arrive.</p>';
const html = (body: string, title = 'Home Repair Grant') => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}${FILLER}</body></html>`;

interface Page {
  url: string;
  status: number;
  headers: ArchiveHeader[];
  body: string | Uint8Array;
  quote: string;
}
const PAGES: Page[] = [
  { url: 'http://replay.test/found', status: 200, headers: [['Content-Type', 'text/html']], body: html('<p>Eligible homeowners may receive up to $10,000 for repairs.</p>'), quote: 'may receive up to $10,000 for repairs' },
  { url: 'http://replay.test/moved', status: 200, headers: [['Content-Type', 'text/html; charset=utf-8'], ['Content-Encoding', 'gzip']],
    body: gzipSync(html('<p>Eligible homeowners may receive up to $12,500 for repairs.</p>')), quote: 'may receive up to $10,000 for repairs' },
  { url: 'http://replay.test/soft-404', status: 200, headers: [['Content-Type', 'text/html']], body: html('<p>Sorry.</p>', 'Page not found'), quote: 'up to $10,000' },
];

const reviews: SourceReview[] = PAGES.map((page, index) => ({
  city: 'alpha', programId: `link-${index + 1}`, reviewedAt: REVIEWED_AT, kind: 'amount', identityMatch: true, amountQuote: page.quote, quoteFoundInPage: true,
}));

let archive = '';
let exchanges: ArchivedExchange[] = [];
let extractor: PageTextExtractor;
let responses: ArchivedResponses;

/** A quote-check line as the run would have written it before judging: the replay fills in the verdict. */
function unjudged(index: number): QuoteCheck {
  const page = PAGES[index]!;
  return {
    city: 'alpha', programId: `link-${index + 1}`, reviewedAt: REVIEWED_AT, quoteSha256: quoteDigest(page.quote), url: page.url, finalUrl: page.url,
    checkedAt: CHECKED_AT, outcome: 'inconclusive', reason: 'page extraction timed out after 20000 ms', contentType: page.headers[0]![1],
    warcRecordId: exchanges[index]!.responseRecordId, payloadSha256: exchanges[index]!.payloadSha256, extractor: '1',
  } as QuoteCheck;
}
function linkLine(index: number, over: Partial<LinkCheck> = {}): LinkCheck {
  const line = { url: PAGES[index]!.url, checkedAt: CHECKED_AT, outcome: 'live', httpStatus: 200, pageClass: 'program',
    warcRecordId: exchanges[index]!.responseRecordId, payloadSha256: exchanges[index]!.payloadSha256, ...over } as LinkCheck;
  if (line.outcome !== 'live') delete line.pageClass;
  return line;
}
const replay = (quoteChecks: QuoteCheck[], linkChecks: LinkCheck[] = [], over: Partial<ReplayOptions> = {}) => replayArchivedVerdicts({
  corpus: { quoteChecks, linkChecks, sourceReviews: reviews },
  readResponse: (id) => responses.read(id),
  isDigestFailure,
  isIndexed: (id) => responses.isIndexed(id),
  redirectsReach: (from, to, notAfter) => responses.redirectsReach(from, to, notAfter),
  extract: (page, quotes) => extractor.extract(page, quotes),
  extractorVersion: '2',
  concurrency: 2,
  ...over,
});

before(async () => {
  archive = join(work, 'archive');
  const writer = await openArchiveWriter({ archiveDir: archive });
  for (const page of PAGES) {
    exchanges.push(await writer.writeExchange({
      targetUri: page.url, date: new Date(`${CHECKED_AT}T06:00:00Z`),
      request: { method: 'GET', headers: [] },
      response: { status: page.status, headers: page.headers, payload: typeof page.body === 'string' ? Buffer.from(page.body) : page.body },
    }));
  }
  await writer.close();
  extractor = createPageTextExtractor({ children: 1 });
  responses = openArchivedResponses(archive);
});
after(async () => {
  await extractor.close();
  responses.close();
});

describe('replayArchivedVerdicts', () => {
  let judged: QuoteCheck[] = [];

  it('re-derives each quote check as the weekly run judges it: decoded, classified, extracted, matched', async () => {
    // The soft 404's line says found: its page is dead, so nothing on it can be.
    const soft404 = { ...unjudged(2), outcome: 'found', textLength: 1, textSha256: 'a'.repeat(64) } as QuoteCheck;
    delete (soft404 as { reason?: string }).reason;
    const report = await replay([unjudged(0), unjudged(1), soft404]);
    assert.equal(report.checked, 3);
    assert.equal(report.matched, 0);
    judged = report.rederived;
    assert.deepEqual(judged.map((check) => check.outcome), ['found', 'not-found', 'inconclusive']);
    assert.equal(judged[2]!.reason, 'link dead: soft 404 (title or heading says not found)');
    assert.deepEqual(judged[1]!.statedAmounts, [{ text: '$12,500', value: 12500 }]);
    for (const [index, check] of judged.entries()) {
      assert.deepEqual((check as { rederived?: unknown }).rederived, { extractor: '2', from: CHECKED_AT });
      assert.equal(check.checkedAt, CHECKED_AT);
      assert.equal((check as { warcRecordId?: string }).warcRecordId, exchanges[index]!.responseRecordId);
    }
  });

  it('the re-derived lines match, so a second replay appends nothing', async () => {
    const report = await replay([...PAGES.map((_, index) => unjudged(index)), ...judged], [linkLine(0), linkLine(2, { outcome: 'dead' })]);
    assert.deepEqual(report.differences, []);
    assert.deepEqual(report.rederived, []);
    assert.equal(report.checked, 5);
    assert.equal(report.matched, 5);
  });

  it('a verdict line edited in the corpus differs, naming its record', async () => {
    const edited = { ...judged[0]!, outcome: 'not-found', statedAmounts: [] } as QuoteCheck;
    const report = await replay([edited], [linkLine(1, { httpStatus: 404, outcome: 'dead' })]);
    assert.equal(report.checked, 2);
    const found = report.differences.map((difference) => [difference.kind, difference.recordId, difference.recorded.split(' ')[0], difference.rederived.split(' ')[0]]);
    assert.deepEqual(found.sort((a, b) => (a[0]! < b[0]! ? -1 : 1)), [
      ['link-check', exchanges[1]!.responseRecordId, 'dead', 'live'],
      ['quote-check', exchanges[0]!.responseRecordId, 'not-found', 'found'],
    ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)));
  });

  it('a line naming other bytes than its record holds is not re-judged', async () => {
    const report = await replay([{ ...judged[0]!, payloadSha256: 'f'.repeat(64) } as QuoteCheck]);
    assert.deepEqual([report.checked, report.matched, report.differences.length], [1, 0, 1]);
    assert.match(report.differences[0]!.rederived, /^nothing: payload sha256 f{64}, but the record holds [0-9a-f]{64}$/);
    assert.deepEqual(report.rederived, []);
  });

  it('a re-derivation that hit the replay\'s own time limit differs but is never appended', async () => {
    const slow = createPageTextExtractor({ children: 1, timeoutMs: 1 });
    try {
      const report = await replay([judged[0]!], [], { extract: (page, quotes) => slow.extract(page, quotes) });
      assert.equal(report.differences.length, 1);
      assert.deepEqual(report.rederived, []);
      assert.match(report.notes[0] ?? '', /re-derived inconclusive for a run-time limit \(page extraction timed out after 1 ms\), so nothing is appended; run it again$/);
    } finally {
      await slow.close();
    }
  });

  it('tells a run-time limit by its kind, not its words: a page whose own reason reads like one is appended, a limit worded otherwise is not', async () => {
    const pageSaysSo = await replay([judged[0]!], [], {
      extract: async () => ({ kind: 'inconclusive', format: 'html', reason: 'page extraction timed out after 5 ms' }),
    });
    assert.equal(pageSaysSo.rederived.length, 1, 'the page\'s own verdict, whatever it says, is a re-derivation');
    assert.deepEqual(pageSaysSo.notes, []);
    const limited = await replay([judged[0]!], [], {
      extract: async () => ({ kind: 'inconclusive', format: 'other', reason: 'the child was asked to stop', limit: 'run-time' }),
    });
    assert.deepEqual(limited.rederived, []);
    assert.match(limited.notes[0] ?? '', /re-derived inconclusive for a run-time limit \(the child was asked to stop\), so nothing is appended; run it again$/);
  });

  it('--since leaves out verdicts checked before it', async () => {
    const report = await replay(judged, [], { since: '2026-11-21' });
    assert.equal(report.checked, 0);
  });

  it('a line naming another URL\'s record (its digest and all) is judged on nothing: both verdicts differ, naming the record', async () => {
    // The found page's record and digest, on the moved page's lines: no archive byte changes.
    const other = { warcRecordId: exchanges[0]!.responseRecordId, payloadSha256: exchanges[0]!.payloadSha256 };
    const quote = { ...unjudged(1), ...other } as QuoteCheck;
    const link = linkLine(1, other);
    const report = await replay([quote], [link]);
    assert.equal(report.checked, 2);
    assert.equal(report.matched, 0);
    assert.deepEqual(report.differences.map((difference) => difference.rederived).sort(), [
      `nothing: the record is of ${PAGES[0]!.url}, not of the line's finalUrl ${PAGES[1]!.url}`,
      `nothing: the record is of ${PAGES[0]!.url}, not of the line's url ${PAGES[1]!.url} nor of a redirect from it in the archive`,
    ]);
    assert.deepEqual(report.rederived, []);
  });

  it('counts a line whose record is gone from the index as pruned when a later archived line replaces it, and fails on one that none does', async () => {
    const gone = '<urn:uuid:00000000-0000-4000-8000-00000000dead>';
    const older = linkLine(0, { checkedAt: '2026-11-13', warcRecordId: gone, payloadSha256: 'e'.repeat(64) } as Partial<LinkCheck>);
    const report = await replay([], [older, linkLine(0)]);
    assert.equal(report.pruned, 1);
    assert.equal(report.checked, 1);
    assert.deepEqual(report.differences, []);
    const alone = linkLine(2, { warcRecordId: gone, payloadSha256: 'e'.repeat(64) } as Partial<LinkCheck>);
    await assert.rejects(replay([], [alone]), /record <urn:uuid:00000000-0000-4000-8000-00000000dead>: not in the archive index/);
  });

  it('a payload edited in the archive yields no verdict: every line on it differs, naming file and record', async () => {
    editArchivedPayload(archive, exchanges[0]!.responseRecordId, '$10,000', '$90,000');
    const report = await replay(judged);
    const mine = report.differences.filter((difference) => difference.recordId === exchanges[0]!.responseRecordId);
    assert.equal(mine.length, 1);
    assert.equal(report.checked, report.matched + report.differences.length);
    assert.equal(mine[0]!.file, exchanges[0]!.file);
    assert.match(mine[0]!.rederived, /^nothing: payload sha256 [0-9a-f]{64} does not match its digest [0-9a-f]{64}$/);
    assert.ok(!report.rederived.some((check) => (check as { warcRecordId?: string }).warcRecordId === exchanges[0]!.responseRecordId));
  });
});
