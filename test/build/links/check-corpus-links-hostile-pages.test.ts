/**
 * A whole run (checkCorpusLinks) over pages made to exhaust their reader, through the loopback fixture
 * proxy, with the extraction the links check uses (create-page-text-extractor.ts) at lowered limits: the
 * run's own process keeps its memory and its event loop while a PDF that inflates to a GiB and a page of
 * mis-nested tags are read, and a healthy page beside them is still judged.
 */
import * as assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { QuoteCheck } from '../../../build/corpus/corpus-types.ts';
import { quoteDigest } from '../../../build/derive/quote-digest.ts';
import { checkCorpusLinks, type LinkRunDeps, type LinkRunOptions } from '../../../build/links/check-corpus-links.ts';
import { createLinkDispatcher } from '../../../build/links/create-link-dispatcher.ts';
import { watchEventLoop, type EventLoopBlocks } from '../../../build/links/watch-event-loop.ts';
import type { QuoteTask } from '../../../build/links/select-quote-targets.ts';
import { createPageTextExtractor, type PageTextExtractor } from '../../../build/quotes/create-page-text-extractor.ts';
import { startLinkFixture, type LinkFixture } from '../../../scripts/loopback/link-fixture-proxy.ts';
import { gzipped, makeInflatingPdf, makeMisnestedHtml } from '../../support/make-hostile-pages.ts';

const OPTIONS: LinkRunOptions = { checkedAt: '2026-11-20', concurrency: 4, perHost: 1, hostIntervalMs: 0, timeoutMs: 10_000, retries: 0, userAgent: 'hra-test', extractConcurrency: 2 };
const QUOTE = 'Eligible homeowners may receive up to $10,000 for home repairs.';
const MAX_RSS_MB = 352;
const MIB = 1024 * 1024;

const PDF_BOMB = 'http://bombs.test/inflates.pdf';
const TAG_BOMB = 'http://bombs.test/tags.html';
const HEALTHY = 'http://healthy.test/program';
const LONG_TEXT = 'http://long.test/rates.txt';

/** The pages: a GiB of zeros behind 1 MB of PDF, 1 MiB of mis-nested tags gzipped, 4.6 MB of text, and a plain page. */
function answerPages(): (request: IncomingMessage, response: ServerResponse, target: URL) => boolean {
  const pages = new Map<string, { headers: Record<string, string>; body: Buffer }>([
    [PDF_BOMB, { headers: { 'content-type': 'application/pdf' }, body: makeInflatingPdf(1024) }],
    [TAG_BOMB, { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: gzipped(makeMisnestedHtml(MIB)) }],
    [LONG_TEXT, { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(`${'Rates for home repair loans change each year. '.repeat(100_000)}${QUOTE}`) }],
    [HEALTHY, { headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from(`<!doctype html><title>Home Repair</title><h1>Home Repair</h1><p>${QUOTE}</p>`) }],
  ]);
  return (request, response, target) => {
    const page = pages.get(target.href);
    if (page === undefined) return false;
    response.writeHead(200, page.headers);
    response.end(request.method === 'HEAD' ? undefined : page.body);
    return true;
  };
}

const task = (programId: string): QuoteTask => ({ city: 'alpha', programId, reviewedAt: '2026-11-01', quote: QUOTE, quoteSha256: quoteDigest(QUOTE) });

/** Runs checkCorpusLinks over `urls`, each with one quote due, and returns its quote checks by URL. */
async function run(fixture: LinkFixture, extractor: PageTextExtractor, urls: string[]): Promise<Map<string, QuoteCheck>> {
  const connections = createLinkDispatcher({ proxy: fixture.proxyUrl, concurrency: 4, perHost: 1, policy: { allowPrivateAddresses: false } });
  const quotes = new Map<string, QuoteCheck>();
  const deps: LinkRunDeps = {
    dispatcher: connections.dispatcher, viaProxy: true, record: () => {}, recordQuote: (check) => quotes.set(check.url, check),
    extract: (page, quotes) => extractor.extract(page, quotes),
    timers: { now: () => performance.now(), setTimeout: (callback, ms) => setTimeout(callback, ms) },
    wallNow: () => Date.now(), random: () => 0.5, progress: () => {}, residentBytes: () => 0,
  };
  const due = new Map(urls.map((url, index) => [url, [task(`p${index}`)]]));
  try {
    await checkCorpusLinks({ urls, cited: urls.length, fresh: 0, quotes: { due, quotes: urls.length, fresh: 0 }, wholePages: new Set(urls), previous: new Map(), uncited: [] }, OPTIONS, deps);
  } finally {
    await connections.destroy();
  }
  return quotes;
}

/** Watches this process's event loop and resident memory (sampled every 10 ms) while `work` runs. */
async function watched<T>(work: () => Promise<T>): Promise<{ result: T; blocks: EventLoopBlocks; rssGrowthBytes: number }> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  const loop = watchEventLoop();
  try {
    const result = await work();
    return { result, blocks: loop.stop(), rssGrowthBytes: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

describe('checkCorpusLinks, hostile pages', () => {
  let fixture: LinkFixture;
  let extractor: PageTextExtractor;
  before(async () => {
    fixture = await startLinkFixture({ answer: answerPages() });
    extractor = createPageTextExtractor({ children: 2, maxRssMb: MAX_RSS_MB, timeoutMs: 15_000 });
  });
  after(async () => {
    await extractor.close();
    await fixture.close();
  });

  it('makes a PDF that inflates to a GiB inconclusive for memory, and the run\'s own memory stays put', async () => {
    const { result, rssGrowthBytes } = await watched(() => run(fixture, extractor, [PDF_BOMB, HEALTHY]));
    assert.equal(result.get(PDF_BOMB)?.outcome, 'inconclusive');
    assert.equal(result.get(PDF_BOMB)?.reason, `page extraction exceeded ${MAX_RSS_MB} MiB of memory`);
    assert.equal(result.get(HEALTHY)?.outcome, 'found');
    assert.ok(rssGrowthBytes < 100 * MIB, `the run grew by ${Math.round(rssGrowthBytes / MIB)} MiB`);
  });

  it('reads a page of mis-nested tags without blocking the run\'s event loop, and judges a healthy page beside it', async () => {
    const { result, blocks } = await watched(() => run(fixture, extractor, [TAG_BOMB, HEALTHY]));
    assert.ok(result.has(TAG_BOMB), 'the tag page was checked');
    assert.equal(result.get(HEALTHY)?.outcome, 'found');
    // The main thread's CPU time between two turns: on this shared machine the wall-clock delay also counts other
    // processes' turns on the cores (watch-event-loop.ts).
    assert.ok(blocks.maxBusyMs < 100, `the event loop was busy for ${blocks.maxBusyMs} ms (wall-clock delay ${blocks.maxDelayMs} ms)`);
  });

  it('judges a quote at the end of 4.6 MB of text without the run normalizing that text on its own thread', async () => {
    const { result, blocks } = await watched(() => run(fixture, extractor, [LONG_TEXT]));
    assert.equal(result.get(LONG_TEXT)?.outcome, 'found', result.get(LONG_TEXT)?.reason);
    assert.ok(blocks.maxBusyMs < 100, `the event loop was busy for ${blocks.maxBusyMs} ms (wall-clock delay ${blocks.maxDelayMs} ms)`);
  });
});
