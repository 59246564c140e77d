/**
 * GET at once where HEAD cannot settle a URL (issue 39): a whole run (checkCorpusLinks) through the loopback
 * fixture proxy skips the HEAD exactly where the URL's last attempt read a body of a 2xx answer, keeps it
 * everywhere else, and records the same verdicts as a run that asks HEAD first everywhere.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LinkCheck } from '../../../build/corpus/corpus-types.ts';
import { checkCorpusLinks, type LinkRunDeps, type LinkRunOptions } from '../../../build/links/check-corpus-links.ts';
import { createLinkDispatcher } from '../../../build/links/create-link-dispatcher.ts';
import { startLinkFixture } from '../../../scripts/loopback/link-fixture-proxy.ts';

const OPTIONS: LinkRunOptions = { checkedAt: '2026-11-30', concurrency: 4, perHost: 1, hostIntervalMs: 0, timeoutMs: 5000, retries: 0, userAgent: 'hra-test', extractConcurrency: 1 };
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const BODY_SHA256 = 'ab'.repeat(32);

const PAGE = 'http://a.test/program';
const GONE = 'http://a.test/gone';
const SOFT_404 = 'http://b.test/moved-on';
const PDF = 'http://c.test/flyer.pdf';
const PDF_READ = 'http://c.test/quoted.pdf';
const NEW_PAGE = 'http://d.test/new';
const REDIRECTED = 'http://e.test/old';
const URLS = [PAGE, GONE, SOFT_404, PDF, PDF_READ, NEW_PAGE, REDIRECTED];

const html = (title: string) => ({ type: 'text/html; charset=utf-8', body: `<!doctype html><title>${title}</title><h1>${title}</h1><p>Home repair grants.</p>` });
const PAGES = new Map<string, { status?: number; location?: string; type?: string; body?: string }>([
  [PAGE, html('Home Repair')],
  [GONE, { status: 404, ...html('Gone') }],
  [SOFT_404, html('Page not found')],
  [PDF, { type: 'application/pdf', body: '%PDF-1.4 flyer' }],
  [PDF_READ, { type: 'application/pdf', body: '%PDF-1.4 quoted' }],
  [NEW_PAGE, html('New Program')],
  [REDIRECTED, { status: 301, location: 'http://e.test/new' }],
  ['http://e.test/new', html('Roof Repair')],
]);

const previous = (url: string, httpStatus: number | null, payloadSha256: string | undefined): [string, LinkCheck] =>
  [url, { url, checkedAt: '2026-11-23', outcome: httpStatus === 200 ? 'live' : 'dead', httpStatus, ...(httpStatus === 200 ? { pageClass: 'program' as const } : {}), ...(payloadSha256 ? { payloadSha256 } : {}) }];
/** Last week's attempts as the archive recorded them: a body read, a 404 page, a HEAD-settled PDF, a PDF read whole for its quote. */
const LAST_WEEK = new Map<string, LinkCheck>([
  previous(PAGE, 200, BODY_SHA256),
  previous(GONE, 404, BODY_SHA256),
  previous(SOFT_404, 200, BODY_SHA256),
  previous(PDF, 200, EMPTY_SHA256),
  previous(PDF_READ, 200, BODY_SHA256),
  // The redirect's final answer was read: its last attempt names the final page's record.
  previous(REDIRECTED, 200, BODY_SHA256),
]);

/** One run over URLS with `last` as the previous attempts: the requests the fixture saw, and the verdicts recorded. */
async function run(last: Map<string, LinkCheck>): Promise<{ requests: string[]; recorded: Map<string, LinkCheck> }> {
  const requests: string[] = [];
  const fixture = await startLinkFixture({
    answer(request, response, target) {
      const page = PAGES.get(target.href);
      if (page === undefined) return false;
      requests.push(`${request.method} ${target.href}`);
      response.writeHead(page.status ?? 200, { ...(page.type ? { 'content-type': page.type } : {}), ...(page.location ? { location: page.location } : {}) });
      response.end(request.method === 'HEAD' ? undefined : page.body);
      return true;
    },
  });
  const connections = createLinkDispatcher({ proxy: fixture.proxyUrl, concurrency: 4, perHost: 1, policy: { allowPrivateAddresses: false } });
  const recorded = new Map<string, LinkCheck>();
  const deps: LinkRunDeps = {
    dispatcher: connections.dispatcher, viaProxy: true, record: (check) => recorded.set(check.url, check),
    recordQuote: () => assert.fail('no quote is due in these runs'),
    extract: () => assert.fail('no page is extracted in these runs'),
    timers: { now: () => performance.now(), setTimeout: (callback, ms) => setTimeout(callback, ms) },
    wallNow: () => Date.now(), random: () => 0.5, progress: () => {}, residentBytes: () => 0,
  };
  try {
    const result = await checkCorpusLinks({ urls: [...URLS], cited: URLS.length, fresh: 0, quotes: { due: new Map(), quotes: 0, fresh: 0 }, wholePages: new Set(), previous: new Map(last), uncited: [] }, OPTIONS, deps);
    assert.equal(result.stopped, undefined);
  } finally {
    await connections.destroy();
    await fixture.close();
  }
  return { requests: requests.sort(), recorded };
}

describe('checkCorpusLinks, GET at once', () => {
  it('skips the HEAD exactly where the last attempt read a 2xx body, and records the verdicts HEAD first gives', async () => {
    const headFirst = await run(new Map());
    const getFirst = await run(LAST_WEEK);
    assert.deepEqual(getFirst.requests, [
      `GET ${PAGE}`,
      `GET ${SOFT_404}`,
      `GET ${PDF_READ}`,
      `GET ${REDIRECTED}`,
      'GET http://e.test/new',
      // A 404 last week, a PDF HEAD settled, a URL never checked: HEAD first, as before.
      `HEAD ${GONE}`, `GET ${GONE}`,
      `HEAD ${PDF}`,
      `HEAD ${NEW_PAGE}`, `GET ${NEW_PAGE}`,
    ].sort());
    assert.deepEqual(headFirst.requests, [
      `HEAD ${PAGE}`, `GET ${PAGE}`,
      `HEAD ${GONE}`, `GET ${GONE}`,
      `HEAD ${SOFT_404}`, `GET ${SOFT_404}`,
      `HEAD ${PDF}`,
      `HEAD ${PDF_READ}`,
      `HEAD ${NEW_PAGE}`, `GET ${NEW_PAGE}`,
      `HEAD ${REDIRECTED}`, 'HEAD http://e.test/new', 'GET http://e.test/new',
    ].sort());
    const verdicts = (recorded: Map<string, LinkCheck>) => URLS.map((url) => recorded.get(url));
    assert.deepEqual(verdicts(getFirst.recorded), verdicts(headFirst.recorded));
    assert.deepEqual(verdicts(headFirst.recorded).map((check) => check?.outcome), ['live', 'dead', 'dead', 'live', 'live', 'live', 'live']);
  });
});
