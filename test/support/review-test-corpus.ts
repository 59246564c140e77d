/**
 * A corpus and evidence archive for the model reviewer's tests: the mini corpus with one live city whose
 * records each cite a page archived by a (fixture) links check, so `hra reviews run` finds their pages.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReceivedRequest, ScriptedReply } from '../../scripts/loopback/model-server.ts';
import { archiveRun } from './evidence-archive-fixture.ts';
import { MINI_CORPUS } from './start-test-gateway.ts';

/** One record of the test city and the page its URL serves. */
export interface ReviewTestRecord {
  id: string;
  name: string;
  maxAmount: number | null;
  /** The HTML body archived for its URL; undefined: never archived (needs a links check). */
  page: string | undefined;
}

/** The URL a test record cites. */
export function recordUrl(id: string): string {
  return `https://reviews.example.test/${id}`;
}

/** A page for a program: its name in the heading, `amountText` in a paragraph, and filler. */
export function programPage(name: string, amountText: string, hidden = ''): string {
  return `<!doctype html><html><head><title>${name}</title></head><body><h1>${name}</h1><p>${amountText}</p>${hidden}`
    + `<p>${'Apply through the city housing office with proof of ownership and income. '.repeat(6)}</p></body></html>`;
}

/** Two records, an amount review's and an identity review's, that `answerBothRecords` reviews as a model would. */
export const AMOUNT_AND_IDENT_RECORDS: readonly ReviewTestRecord[] = [
  { id: 'amount', name: 'Amount Grant', maxAmount: 7500, page: programPage('Amount Grant', 'Homeowners may receive up to $7,500 for roof repair.') },
  { id: 'ident', name: 'Ident Grant', maxAmount: null, page: programPage('Ident Grant', 'Porch repairs for seniors.') },
];

/** A loopback model's answer for `AMOUNT_AND_IDENT_RECORDS`: the amount quoted for one, identity alone for the other. */
export function answerBothRecords(request: ReceivedRequest): ScriptedReply {
  const prompt = request.body?.messages?.[1]?.content ?? '';
  const content = prompt.includes('"Amount Grant"')
    ? { identity: 'match', amountQuote: 'up to $7,500 for roof repair', statedAmount: 7500, rationale: 'the page states it' }
    : { identity: 'match', amountQuote: null, statedAmount: null, rationale: 'the page is the program' };
  return { kind: 'answer', content };
}

/** Writes the corpus into `dir/corpus` and its archive into `dir/archive` (links checked on `checkedOn`). */
export async function writeReviewTestCorpus(dir: string, records: readonly ReviewTestRecord[], checkedOn = '2026-11-10'): Promise<{ corpus: string; archive: string }> {
  const corpus = join(dir, 'corpus');
  const archive = join(dir, 'archive');
  cpSync(MINI_CORPUS, corpus, { recursive: true });
  const manifestFile = join(corpus, 'manifest.json');
  writeFileSync(manifestFile, JSON.stringify({ ...JSON.parse(readFileSync(manifestFile, 'utf8')), asOf: checkedOn, sampleCity: 'alpha' }, null, 2));
  const cities = readFileSync(join(corpus, 'cities.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { slug: string; status: string });
  writeFileSync(join(corpus, 'cities.ndjson'), `${cities.map((city) => JSON.stringify({ ...city, status: city.slug === 'alpha' ? 'live' : 'pending' })).join('\n')}\n`);
  writeFileSync(join(corpus, 'programs/alpha.ndjson'), `${records.map((record) => JSON.stringify({
    id: record.id, name: record.name, source: 'Alpha Housing Department', eligibilityType: ['homeowner'], fundingStatus: 'available',
    url: recordUrl(record.id), category: 'home-repair', maxAmount: record.maxAmount, incomeRequirement: 'moderate', projectTypes: ['roof'],
  })).join('\n')}\n`);
  for (const file of ['evidence/link-checks.ndjson', 'evidence/source-reviews.ndjson', 'corrections.ndjson', 'changes.ndjson', 'policy/quarantine.ndjson', 'policy/adjacent-scope.ndjson']) writeFileSync(join(corpus, file), '');
  const pages = records.flatMap((record) => (record.page === undefined ? [] : [{ url: recordUrl(record.id), body: record.page }]));
  await archiveRun(archive, corpus, new Date(`${checkedOn}T06:00:00Z`), pages, 4100);
  return { corpus, archive };
}

/** The corpus's review lines. */
export function readReviewLines(corpus: string): Array<Record<string, unknown>> {
  return readFileSync(join(corpus, 'evidence/source-reviews.ndjson'), 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
}
