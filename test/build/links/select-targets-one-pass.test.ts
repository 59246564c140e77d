/**
 * Link and quote selection share one pass over the citations: at ten times the published scale each pass
 * re-reads 22,012 city files (BENCHMARKS.md, "Link check at ten times the scale"). The quote targets must
 * be those selectQuoteTargets picks alone, and each live city's file must be read once.
 */
import * as assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import type { Corpus } from '../../../build/corpus/corpus-types.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { selectLinkTargets } from '../../../build/links/select-link-targets.ts';
import { selectQuoteTargets } from '../../../build/links/select-quote-targets.ts';
import { visitCitations } from '../../../build/links/visit-citations.ts';

const demoCorpus = fileURLToPath(new URL('../../../corpus', import.meta.url));

/** programFiles that counts, by slug, how often a reader asked for a city's file. */
class CountedFiles extends Map<string, string> {
  readonly asked = new Map<string, number>();
  override get(slug: string): string | undefined {
    this.asked.set(slug, (this.asked.get(slug) ?? 0) + 1);
    return super.get(slug);
  }
}

let corpus: Corpus;
let cited: string[];

describe('selectLinkTargets in one pass', () => {
  before(() => {
    const loaded = loadCorpus(demoCorpus);
    // Every other quote checked two days before the run: fresh, so both counts move.
    const tasks = [...selectQuoteTargets(loaded, { today: '2026-11-20', maxAgeDays: 6 }).due].flatMap(([url, list]) => list.map((task) => ({ url, task })));
    const quoteChecks = tasks.filter((_, index) => index % 2 === 0).map(({ url, task }) => ({
      city: task.city, programId: task.programId, reviewedAt: task.reviewedAt, quoteSha256: task.quoteSha256, url, finalUrl: url,
      checkedAt: '2026-11-18', outcome: 'inconclusive', reason: 'page has no text', contentType: 'text/html',
    })) as Corpus['quoteChecks'];
    corpus = { ...loaded, quoteChecks };
    const urls = new Set<string>();
    visitCitations(corpus, ({ url }) => urls.add(url));
    cited = [...urls].sort();
  });

  for (const only of [undefined, 'some'] as const) {
    it(`picks selectQuoteTargets' quotes and reads each live city's file once${only ? ', with --url' : ''}`, () => {
      const files = new CountedFiles(corpus.programFiles);
      const urls = only === undefined ? undefined : [...cited.filter((_, index) => index % 3 === 0), 'http://nobody.test/'];
      const today = '2026-11-20';
      const targets = selectLinkTargets({ ...corpus, programFiles: files }, { today, maxAgeDays: 6, ...(urls ? { only: urls } : {}) });
      const wanted = urls === undefined ? undefined : new Set(urls.filter((url) => cited.includes(url)));
      const alone = selectQuoteTargets(corpus, { today, maxAgeDays: 6, ...(wanted ? { only: wanted } : {}) });
      assert.ok(alone.fresh > 0 && alone.due.size > 0, 'no amount quote is due, or none fresh: the test would compare little');
      const { reusable, ...picked } = targets.quotes;
      const { reusable: reusableAlone, ...pickedAlone } = alone;
      assert.deepEqual(picked, pickedAlone);
      assert.equal(typeof reusable?.find, typeof reusableAlone?.find);
      const live = corpus.cities.filter((city) => city.status === 'live' && corpus.programFiles.has(city.slug)).map((city) => city.slug);
      assert.deepEqual([...files.asked.entries()].sort(), live.map((slug) => [slug, 1] as const).sort());
    });
  }
});
