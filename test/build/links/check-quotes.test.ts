/** The quote checks made from one link attempt, against scripted verdicts and extractions. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkQuotes, type ExtractText } from '../../../build/links/check-quotes.ts';
import { EXTRACTOR_VERSION } from '../../../build/quotes/extractor-version.ts';
import { STATED_AMOUNTS_CAP } from '../../../build/quotes/judge-page-text.ts';
import type { LinkVerdict } from '../../../build/links/link-check-types.ts';
import type { QuoteTask } from '../../../build/links/select-quote-targets.ts';

const URL = 'http://a.test/roof';
const task = (programId: string, quote: string): QuoteTask => ({ city: 'alpha', programId, reviewedAt: '2026-11-01', quote, quoteSha256: 'a'.repeat(64) });
const live = (over: Partial<LinkVerdict> = {}): LinkVerdict => ({
  outcome: 'live', httpStatus: 200, pageClass: 'program', reason: 'status 200', finalUrl: URL, contentType: 'text/html',
  page: { kind: 'read', bytes: new Uint8Array([1]), complete: true }, ...over,
});
const text = (body: string): ExtractText => async () => ({ kind: 'text', format: 'html', text: body });
const never: ExtractText = async () => assert.fail('no text may be extracted');

describe('checkQuotes', () => {
  it('makes every check of a URL that is not live inconclusive, naming the link verdict, without reading text', async () => {
    const dead: LinkVerdict = { outcome: 'dead', httpStatus: 404, reason: 'status 404', finalUrl: URL, contentType: 'text/html' };
    const checks = await checkQuotes(URL, [task('a', 'Up to $5,000.'), task('b', 'Up to $6,000.')], dead, '2026-11-20', never);
    assert.deepEqual(checks.map((check) => [check.programId, check.outcome, check.reason, check.finalUrl]), [
      ['a', 'inconclusive', 'link dead: status 404', URL], ['b', 'inconclusive', 'link dead: status 404', URL],
    ]);
    const none: LinkVerdict = { outcome: 'inconclusive', httpStatus: null, reason: 'timeout' };
    assert.deepEqual((await checkQuotes(URL, [task('a', 'x')], none, '2026-11-20', never)).map((c) => [c.finalUrl, c.contentType, c.reason]), [[null, null, 'link inconclusive: timeout']]);
  });

  it('keeps a quote found on a PDF with unreadable pages, and makes one it lacks inconclusive, since it may be on such a page', async () => {
    const reason = 'pdf text layer unreadable on 1 of 2 pages (broken font encoding)';
    const extract: ExtractText = async () => ({ kind: 'text', format: 'pdf', text: 'Up to $5,000 for roofs.\n\f\nThe signi\u001Cer', unreadable: reason });
    const checks = await checkQuotes(URL, [task('a', 'up to $5,000 for roofs'), task('b', 'up to $7,500')], live(), '2026-11-20', extract);
    assert.deepEqual(checks.map((check) => [check.outcome, check.reason]), [['found', undefined], ['inconclusive', reason]]);
    assert.equal(checks[1]?.textSha256, undefined, 'an inconclusive check carries no text measures');
  });

  it('names the archived page each check rests on and the extractor, last on every line, conclusive or not', async () => {
    const archived = { responseRecordId: '<urn:uuid:0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b>', requestRecordId: '<urn:uuid:1f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b>', responseType: 'revisit' as const, payloadSha256: 'b'.repeat(64), file: 'warc/x.warc.gz' };
    const [found] = await checkQuotes(URL, [task('a', 'up to $5,000')], live({ archived }), '2026-11-20', text('Up to $5,000.'));
    assert.deepEqual(Object.entries(found!).slice(-3), [['warcRecordId', archived.responseRecordId], ['payloadSha256', archived.payloadSha256], ['extractor', EXTRACTOR_VERSION]]);
    const dead: LinkVerdict = { outcome: 'dead', httpStatus: 404, reason: 'status 404', finalUrl: URL, contentType: 'text/html', archived };
    const [inconclusive] = await checkQuotes(URL, [task('a', 'x')], dead, '2026-11-20', never);
    assert.deepEqual([inconclusive?.warcRecordId, inconclusive?.extractor], [archived.responseRecordId, EXTRACTOR_VERSION]);
    const [unarchived] = await checkQuotes(URL, [task('a', 'up to $5,000')], live(), '2026-11-20', text('Up to $5,000.'));
    assert.deepEqual([unarchived?.warcRecordId, unarchived?.payloadSha256, unarchived?.extractor], [undefined, undefined, EXTRACTOR_VERSION]);
  });

  it('does not judge a page whose body broke off', async () => {
    const [check] = await checkQuotes(URL, [task('a', 'x')], live({ page: { kind: 'broken', reason: 'no complete body within the 100 ms deadline' } }), '2026-11-20', never);
    assert.deepEqual([check?.outcome, check?.reason], ['inconclusive', 'no complete body within the 100 ms deadline']);
  });

  it('judges each quote on the one text, and lists the distinct amounts a not-found page states, capped', async () => {
    const amounts = Array.from({ length: STATED_AMOUNTS_CAP + 5 }, (_, i) => `$${(i + 1) * 100}`).join(' ');
    const page = `Grants up to $5,000. Again: $5,000. ${amounts}`;
    const checks = await checkQuotes(URL, [task('a', 'grants UP TO $5,000.'), task('b', 'Up to $6,000.')], live(), '2026-11-20', text(page));
    assert.deepEqual(checks.map((check) => check.outcome), ['found', 'not-found']);
    assert.equal(checks[0]?.statedAmounts, undefined);
    const stated = checks[1]?.statedAmounts ?? [];
    assert.equal(stated.length, STATED_AMOUNTS_CAP);
    assert.deepEqual(stated.slice(0, 2), [{ text: '$5,000', value: 5000 }, { text: '$100', value: 100 }], 'the repeated $5,000 once, in order of first appearance');
    assert.equal(checks[0]?.textLength, [...page].length);
    assert.match(String(checks[0]?.textSha256), /^[0-9a-f]{64}$/);
  });

  it('reads a pdf page with the line-break rules of pdf text, an html page without them', async () => {
    const body = 'Loans at a zero-\npercent interest rate, up to $5,000.00 per home.';
    const quotes = [task('a', 'a zero-percent interest rate'), task('b', 'up to $5,000 per home')];
    const pdf: ExtractText = async () => ({ kind: 'text', format: 'pdf', text: body });
    assert.deepEqual((await checkQuotes(URL, quotes, live(), '2026-11-20', pdf)).map((check) => check.outcome), ['found', 'found']);
    assert.deepEqual((await checkQuotes(URL, quotes, live(), '2026-11-20', text(body))).map((check) => check.outcome), ['not-found', 'found']);
  });
});
