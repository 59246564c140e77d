/**
 * Writes a corpus for link-check tests: the mini corpus with every URL moved to a made-up `.test` host
 * over plain HTTP (`https://alpha.example.org/roof` becomes `http://alpha.test/roof`), plus one alpha
 * program per extra URL, so each fixture behaviour can be cited by a live record.
 */
import { appendFileSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { quoteDigest } from '../../build/derive/quote-digest.ts';
import { visitCitations } from '../../build/links/visit-citations.ts';

const MINI_CORPUS = join(import.meta.dirname, '..', 'fixtures', 'mini-corpus');

/** Options of writeLinkTestCorpus. */
export interface LinkTestCorpusOptions {
  /** URLs cited by added alpha programs `link-1`, `link-2`, ... in this order. */
  extraUrls?: readonly string[];
  /**
   * When given, each added program gets an identity review of this date, so that none is due a review and
   * a links check reads its URL as it reads a link alone (HEAD first, a page to its first heading); without
   * it the added programs have no review, are due one, and their pages are read whole.
   */
  extraReviewedAt?: string;
  /** Replaces evidence/link-checks.ndjson (after the host rewrite) when given. */
  linkChecks?: ReadonlyArray<Record<string, unknown>>;
  /** Manifest fields to set (`contact: undefined` removes it). */
  manifest?: Record<string, unknown>;
}

/** Copies the mini corpus to `dir` with the rewrites above; returns `dir`. */
export function writeLinkTestCorpus(dir: string, options: LinkTestCorpusOptions = {}): string {
  cpSync(MINI_CORPUS, dir, { recursive: true });
  const files = ['national.ndjson', 'evidence/link-checks.ndjson', ...readdirSync(join(dir, 'programs')).map((name) => `programs/${name}`)];
  for (const relative of files) {
    const file = join(dir, relative);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/https:\/\/([a-z0-9-]+)\.example\.org/g, 'http://$1.test'));
  }
  const extra = options.extraUrls ?? [];
  if (extra.length > 0) {
    const alpha = join(dir, 'programs/alpha.ndjson');
    const text = readFileSync(alpha, 'utf8');
    const template = JSON.parse(text.split('\n')[0] as string) as Record<string, unknown>;
    const rows = extra.map((url, index) => JSON.stringify({ ...template, id: `link-${index + 1}`, name: `Alpha Link Program ${index + 1}`, url }));
    writeFileSync(alpha, `${text}${rows.join('\n')}\n`);
    const reviewedAt = options.extraReviewedAt;
    if (reviewedAt !== undefined) {
      const reviews = extra.map((_, index) => JSON.stringify({ city: 'alpha', programId: `link-${index + 1}`, reviewedAt, kind: 'identity', identityMatch: true }));
      appendFileSync(join(dir, 'evidence/source-reviews.ndjson'), `${reviews.join('\n')}\n`);
    }
  }
  if (options.linkChecks !== undefined) {
    writeFileSync(join(dir, 'evidence/link-checks.ndjson'), options.linkChecks.map((row) => `${JSON.stringify(row)}\n`).join(''));
  }
  if (options.manifest !== undefined) {
    const file = join(dir, 'manifest.json');
    const manifest = { ...(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>), ...options.manifest };
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  return dir;
}

/**
 * Records an inconclusive quote check dated `checkedAt` for every amount review of the corpus in `dir`, on
 * the URL its record cites, so that link-only tests are not joined by due quote checks.
 */
export function markQuotesChecked(dir: string, checkedAt: string): void {
  const corpus = loadCorpus(dir);
  const urls = new Map<string, string>();
  visitCitations(corpus, ({ city, programId, url }) => urls.set(`${city}/${programId}`, url));
  const rows = corpus.sourceReviews.flatMap((review) => {
    const url = urls.get(`${review.city}/${review.programId}`);
    if (review.kind !== 'amount' || review.amountQuote === undefined || url === undefined) return [];
    return [{
      city: review.city, programId: review.programId, reviewedAt: review.reviewedAt, quoteSha256: quoteDigest(review.amountQuote),
      url, finalUrl: null, checkedAt, outcome: 'inconclusive', reason: 'marked checked by the test', contentType: null,
    }];
  });
  writeFileSync(join(dir, 'evidence/quote-checks.ndjson'), rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
}

/**
 * A link-test corpus in `dir` whose only due URLs are 16 pages of the fixture's slow host (each answered
 * after 20 ms): every other citation has a fresh attempt dated `freshOn` and its quotes are marked checked,
 * so a run checks the slow pages one at a time and can be stopped part way. Returns the corpus, its
 * link-check file and the slow URLs.
 */
export function writeSlowHostCorpus(dir: string, freshOn: string): { corpus: string; logFile: string; urls: string[] } {
  const urls = Array.from({ length: 16 }, (_, i) => `http://slow.test/slow/20/p${i}`);
  const corpus = writeLinkTestCorpus(dir, { extraUrls: urls, linkChecks: [] });
  const logFile = join(corpus, 'evidence/link-checks.ndjson');
  const others = new Set<string>();
  visitCitations(loadCorpus(corpus), ({ url }) => others.add(url));
  const fresh = [...others].filter((url) => !url.includes('slow.test'));
  writeFileSync(logFile, fresh.map((url) => `${JSON.stringify({ url, checkedAt: freshOn, outcome: 'dead', httpStatus: 404 })}\n`).join(''));
  markQuotesChecked(corpus, freshOn);
  return { corpus, logFile, urls };
}
