/**
 * What a run (checkCorpusLinks) holds per URL, counted at two run sizes through the loopback fixture proxy: the
 * state kept for a URL's visit (its due quote tasks, its whole-page mark, its previous attempt) is gone once
 * its attempt is recorded, so what the run holds follows the URLs left to check, not the URLs checked.
 */
import * as assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { LinkCheck } from '../../../build/corpus/corpus-types.ts';
import { quoteDigest } from '../../../build/derive/quote-digest.ts';
import { checkCorpusLinks, type LinkRunDeps, type LinkRunOptions } from '../../../build/links/check-corpus-links.ts';
import { createLinkDispatcher } from '../../../build/links/create-link-dispatcher.ts';
import type { LinkTargets } from '../../../build/links/select-link-targets.ts';
import type { QuoteTask } from '../../../build/links/select-quote-targets.ts';
import { extractPageText } from '../../../build/quotes/extract-page-text.ts';
import { startLinkFixture, type LinkFixture } from '../../../scripts/loopback/link-fixture-proxy.ts';

const OPTIONS: LinkRunOptions = { checkedAt: '2026-11-20', concurrency: 8, perHost: 1, hostIntervalMs: 0, timeoutMs: 10_000, retries: 0, userAgent: 'hra-test', extractConcurrency: 2 };
const QUOTE = 'Eligible homeowners may receive up to $10,000 for home repairs.';

/** Every URL answers a small program page stating the quote. */
function answerPage(request: IncomingMessage, response: ServerResponse): boolean {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(request.method === 'HEAD' ? undefined : `<!doctype html><title>Home Repair</title><h1>Home Repair</h1><p>${QUOTE}</p>`);
  return true;
}

/** `size` URLs over a few hosts, each with a previous attempt, and every other one with a quote due (so read whole). */
function targetsOf(size: number): LinkTargets {
  const urls = Array.from({ length: size }, (_, index) => `http://site${index % 5}.test/program/${String(index).padStart(4, '0')}`).sort();
  const task = (index: number): QuoteTask => ({ city: 'alpha', programId: `p${index}`, reviewedAt: '2026-11-01', quote: QUOTE, quoteSha256: quoteDigest(QUOTE) });
  const due = new Map(urls.filter((_, index) => index % 2 === 0).map((url, index) => [url, [task(index)]]));
  const previous = new Map(urls.map((url): [string, LinkCheck] => [url, { url, checkedAt: '2026-11-13', outcome: 'live', httpStatus: 200 }]));
  return { urls, cited: size, fresh: 0, quotes: { due, quotes: due.size, fresh: 0 }, wholePages: new Set(due.keys()), previous, uncited: [] };
}

/** Entries the run holds for URLs already recorded, at each record and at the end. */
interface HeldCounts {
  /** The most entries held, at any record, for URLs recorded before it. */
  mostForRecorded: number;
  atEnd: number;
  recorded: number;
  quoteChecks: number;
}

async function countHeld(fixture: LinkFixture, size: number): Promise<HeldCounts> {
  const targets = targetsOf(size);
  const recorded: string[] = [];
  let mostForRecorded = 0;
  let quoteChecks = 0;
  const heldFor = (urls: readonly string[]) =>
    urls.filter((url) => targets.quotes.due.has(url)).length + urls.filter((url) => targets.wholePages.has(url)).length + urls.filter((url) => targets.previous.has(url)).length;
  const connections = createLinkDispatcher({ proxy: fixture.proxyUrl, concurrency: 8, perHost: 1, policy: { allowPrivateAddresses: false } });
  const deps: LinkRunDeps = {
    dispatcher: connections.dispatcher, viaProxy: true,
    record: (check) => {
      // Counted before this URL joins: its own entries go just after it is recorded.
      mostForRecorded = Math.max(mostForRecorded, heldFor(recorded));
      recorded.push(check.url);
    },
    recordQuote: (check) => {
      assert.equal(check.outcome, 'found', `${check.url}: ${check.outcome}`);
      quoteChecks += 1;
    },
    extract: (page) => extractPageText(page),
    timers: { now: () => performance.now(), setTimeout: (callback, ms) => setTimeout(callback, ms) },
    wallNow: () => Date.now(), random: () => 0.5, progress: () => {}, residentBytes: () => 0,
  };
  try {
    const result = await checkCorpusLinks(targets, OPTIONS, deps);
    assert.equal(result.stopped, undefined);
    assert.equal(result.tally.checked, size);
  } finally {
    await connections.destroy();
  }
  return { mostForRecorded, atEnd: targets.quotes.due.size + targets.wholePages.size + targets.previous.size, recorded: recorded.length, quoteChecks };
}

describe('checkCorpusLinks, what it holds per URL', () => {
  let fixture: LinkFixture;
  before(async () => {
    fixture = await startLinkFixture({ log: false, answer: (request, response) => answerPage(request, response) });
  });
  after(async () => {
    await fixture.close();
  });

  it('holds nothing for a recorded URL, at 20 URLs and at 120: the same zero, not a count that follows the run', async () => {
    const small = await countHeld(fixture, 20);
    const large = await countHeld(fixture, 120);
    assert.deepEqual(small, { mostForRecorded: 0, atEnd: 0, recorded: 20, quoteChecks: 10 });
    assert.deepEqual(large, { mostForRecorded: 0, atEnd: 0, recorded: 120, quoteChecks: 60 });
  });
});
