/**
 * Faults planted in copies of a corpus, with where the loader must report each, and the edits that plant
 * them: shared by the loader's tests and the build workers' (which must report the same problems).
 */
import * as assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_VERSION } from '../../../build/contract/api-version.ts';
import { CorpusInvalidError, type CorpusProblem } from '../../../build/corpus/corpus-problem.ts';
import { loadCorpus, type LoadCorpusOptions } from '../../../build/corpus/load-corpus.ts';
import { MAX_JSON_DEPTH } from '../../../build/corpus/find-json-violations.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

/** Rewrites line `line` (1-based) of an NDJSON file through `edit`, or replaces it with raw text. */
export function editLine(file: string, line: number, edit: ((row: Record<string, unknown>) => void) | string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const index = line - 1;
  if (typeof edit === 'string') lines[index] = edit;
  else {
    const row = JSON.parse(lines[index] ?? '') as Record<string, unknown>;
    edit(row);
    lines[index] = JSON.stringify(row);
  }
  writeFileSync(file, lines.join('\n'));
}

/** Inserts raw text as line `line` (1-based), pushing the rest down. */
export function insertLine(file: string, line: number, text: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.splice(line - 1, 0, text);
  writeFileSync(file, lines.join('\n'));
}

/** Adds raw members (`"k": v`) at the end of the JSON object on line `line`, keeping the text as written. */
export function appendMembers(file: string, line: number, members: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines[line - 1] = (lines[line - 1] ?? '').replace(/}\s*$/, `, ${members}}`);
  writeFileSync(file, lines.join('\n'));
}

/** Replaces the first `text` on line `line` (1-based) with raw bytes, which need not be UTF-8. */
export function replaceWithBytes(file: string, line: number, text: string, bytes: number[]): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const target = lines[line - 1] ?? '';
  const at = target.indexOf(text);
  assert.ok(at >= 0, `${text} is not on line ${line} of ${file}`);
  const parts = lines.map((content, index) => (index === line - 1
    ? Buffer.concat([Buffer.from(content.slice(0, at)), Buffer.from(bytes), Buffer.from(content.slice(at + text.length))])
    : Buffer.from(content)));
  writeFileSync(file, Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [Buffer.from('\n'), part]))));
}

export function prependBytes(file: string, bytes: number[]): void {
  writeFileSync(file, Buffer.concat([Buffer.from(bytes), readFileSync(file)]));
}

export function replaceText(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${from} is not in ${file}`);
  writeFileSync(file, text.replace(from, to));
}

/** Copies `source` to a scratch folder named `corpus`, plants into it, and hands it to `use`; removes it after. */
/** Every problem loadCorpus reports for the corpus in `dir`, in order; none when it loads. */
export function problemsOf(dir: string, options: LoadCorpusOptions = {}): readonly CorpusProblem[] {
  try {
    loadCorpus(dir, options);
    return [];
  } catch (error) {
    if (!(error instanceof CorpusInvalidError)) throw error;
    return error.problems;
  }
}

export function inPlantedCopy<T>(source: string, plant: (root: string) => void, use: (root: string) => T): T {
  const scratch = makeTempDir('hra-planted-');
  try {
    const root = join(scratch, 'corpus');
    cpSync(source, root, { recursive: true });
    plant(root);
    return use(root);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Writes evidence/quote-checks.ndjson: one valid `found` check of mke-strong-homes's review per entry, with the entry's fields over it. */
export function writeQuoteChecks(root: string, overrides: ReadonlyArray<Record<string, unknown>>): void {
  const valid = {
    city: 'milwaukee', programId: 'mke-strong-homes', reviewedAt: '2026-05-12', quoteSha256: 'b'.repeat(64),
    url: 'https://city.milwaukee.gov/strong', finalUrl: 'https://city.milwaukee.gov/strong', checkedAt: '2026-11-20',
    outcome: 'found', contentType: 'text/html', textLength: 1200, textSha256: 'c'.repeat(64),
  };
  writeFileSync(join(root, 'evidence/quote-checks.ndjson'), overrides.map((over) => `${JSON.stringify({ ...valid, ...over })}\n`).join(''));
}

export function rowAt(file: string, line: number): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8').split('\n')[line - 1] ?? '') as Record<string, unknown>;
}

/** A fault planted in a copy of a corpus, and where and how the loader must report it. */
export interface PlantedFault {
  what: string;
  file: string;
  line: number;
  path: string;
  message: RegExp;
  plant: (root: string) => void;
}

/** Twenty-four faults of different kinds, planted together in a copy of the demo corpus, one problem each. */
export const faults: PlantedFault[] = [
  { what: 'status outside its enum', file: 'programs/detroit.ndjson', line: 3, path: '$.fundingStatus', message: /must be one of available, waitlist, closed, unknown/,
    plant: (root) => editLine(join(root, 'programs/detroit.ndjson'), 3, (row) => { row.fundingStatus = 'open'; }) },
  { what: 'required field missing', file: 'programs/chicago.ndjson', line: 2, path: '$.source', message: /is required/,
    plant: (root) => editLine(join(root, 'programs/chicago.ndjson'), 2, (row) => { delete row.source; }) },
  { what: 'duplicate id in a city', file: 'programs/chicago.ndjson', line: 5, path: '$.id', message: /duplicate program id/,
    plant: (root) => insertLine(join(root, 'programs/chicago.ndjson'), 5, JSON.stringify(rowAt(join(root, 'programs/chicago.ndjson'), 4))) },
  { what: 'line that is not JSON', file: 'programs/houston.ndjson', line: 7, path: '$', message: /not valid JSON/,
    plant: (root) => editLine(join(root, 'programs/houston.ndjson'), 7, '{"id": "hou-broken", "name": ') },
  { what: 'blank line inside a file', file: 'programs/atlanta.ndjson', line: 4, path: '$', message: /blank line/,
    plant: (root) => insertLine(join(root, 'programs/atlanta.ndjson'), 4, '') },
  { what: 'URL that is not http(s)', file: 'programs/denver.ndjson', line: 2, path: '$.url', message: /pattern|null/,
    plant: (root) => editLine(join(root, 'programs/denver.ndjson'), 2, (row) => { row.url = 'ftp://files.example.org/program'; }) },
  { what: 'value outside the vocabulary', file: 'programs/baltimore.ndjson', line: 3, path: '$.projectTypes[0]', message: /not in vocabularies.json projectTypes/,
    plant: (root) => editLine(join(root, 'programs/baltimore.ndjson'), 3, (row) => { row.projectTypes = ['spaceship-repair']; }) },
  { what: 'state abbreviation of the wrong shape', file: 'cities.ndjson', line: 2, path: '$.stateAbbr', message: /pattern/,
    plant: (root) => editLine(join(root, 'cities.ndjson'), 2, (row) => { row.stateAbbr = 'Texas'; }) },
  { what: 'latitude out of bounds', file: 'cities.ndjson', line: 3, path: '$.lat', message: /<= 90/,
    plant: (root) => editLine(join(root, 'cities.ndjson'), 3, (row) => { row.lat = 200; }) },
  { what: 'live link check without a page class', file: 'evidence/link-checks.ndjson', line: 1, path: '$.pageClass', message: /is required/,
    plant: (root) => editLine(join(root, 'evidence/link-checks.ndjson'), 1, (row) => { row.outcome = 'live'; row.httpStatus = 200; delete row.pageClass; }) },
  { what: 'impossible date', file: 'evidence/link-checks.ndjson', line: 2, path: '$.checkedAt', message: /format "date"/,
    plant: (root) => editLine(join(root, 'evidence/link-checks.ndjson'), 2, (row) => { row.checkedAt = '2026-13-01'; }) },
  { what: 'review of a record that does not exist', file: 'evidence/source-reviews.ndjson', line: 2, path: '$.programId', message: /no program "ghost-program"/,
    plant: (root) => editLine(join(root, 'evidence/source-reviews.ndjson'), 2, (row) => { row.programId = 'ghost-program'; }) },
  { what: 'amount review without its quote', file: 'evidence/source-reviews.ndjson', line: 1, path: '$.amountQuote', message: /is required/,
    plant: (root) => editLine(join(root, 'evidence/source-reviews.ndjson'), 1, (row) => { delete row.amountQuote; }) },
  { what: 'correction of a derived field', file: 'corrections.ndjson', line: 1, path: '$.field', message: /must be one of/,
    plant: (root) => editLine(join(root, 'corrections.ndjson'), 1, (row) => { row.field = 'freshness'; }) },
  { what: 'correction of a missing record', file: 'corrections.ndjson', line: 2, path: '$.programId', message: /no program "nothing-here"/,
    plant: (root) => editLine(join(root, 'corrections.ndjson'), 2, (row) => { row.programId = 'nothing-here'; }) },
  { what: 'correction that leaves its row invalid', file: 'corrections.ndjson', line: 3, path: '$.value', message: /leaves .* invalid: \$\.fundingStatus/,
    plant: (root) => editLine(join(root, 'corrections.ndjson'), 3, (row) => { row.field = 'fundingStatus'; row.value = 'maybe'; }) },
  { what: 'quarantine of a missing record', file: 'policy/quarantine.ndjson', line: 1, path: '$.programId', message: /no program "vanished"/,
    plant: (root) => editLine(join(root, 'policy/quarantine.ndjson'), 1, (row) => { row.programId = 'vanished'; }) },
  { what: 'change event in an unknown city', file: 'changes.ndjson', line: 4, path: '$.city', message: /no city "atlantis"/,
    plant: (root) => editLine(join(root, 'changes.ndjson'), 4, (row) => { row.city = 'atlantis'; }) },
  { what: 'change ids that do not increase', file: 'changes.ndjson', line: 6, path: '$.id', message: /ids must increase/,
    plant: (root) => editLine(join(root, 'changes.ndjson'), 6, (row) => { row.id = 1; }) },
  // Planted together in one new file (the loader reads it whole), one fault per line.
  { what: 'quote check of a missing record', file: 'evidence/quote-checks.ndjson', line: 1, path: '$.programId', message: /no program "ghost"/,
    plant: (root) => writeQuoteChecks(root, [
      { programId: 'ghost' },
      { reviewedAt: '2026-05-13' },
      { outcome: 'not-found' },
      { outcome: 'inconclusive', textLength: undefined, textSha256: undefined },
    ]) },
  { what: 'quote check of a review that does not exist', file: 'evidence/quote-checks.ndjson', line: 2, path: '$.reviewedAt', message: /no amount review of milwaukee\/mke-strong-homes dated 2026-05-13/,
    plant: () => {} },
  { what: 'not-found quote check without the amounts the page states', file: 'evidence/quote-checks.ndjson', line: 3, path: '$.statedAmounts', message: /is required/,
    plant: () => {} },
  { what: 'inconclusive quote check without its reason', file: 'evidence/quote-checks.ndjson', line: 4, path: '$.reason', message: /is required/,
    plant: () => {} },
  { what: 'sample city that is not live', file: 'manifest.json', line: 6, path: '$.sampleCity', message: /is pending, not live/,
    plant: (root) => {
      const file = join(root, 'manifest.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"sampleCity": "milwaukee"', '"sampleCity": "phoenix"'));
    } },
];

export const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/** Input RFC 8785 cannot canonicalize (or that this code does not serve), each planted alone in a copy of the demo corpus. */
export const uncanonical: PlantedFault[] = [
  { what: 'a duplicate key in a program row', file: 'programs/detroit.ndjson', line: 4, path: '$.id', message: /^duplicate key "id"/,
    plant: (root) => appendMembers(join(root, 'programs/detroit.ndjson'), 4, '"id": "det-shadow"') },
  { what: 'a duplicate key deep inside a program row', file: 'programs/chicago.ndjson', line: 3, path: '$.notes.source.page', message: /^duplicate key "page"/,
    plant: (root) => appendMembers(join(root, 'programs/chicago.ndjson'), 3, '"notes": {"source": {"page": 1, "page": 2}}') },
  { what: 'an invalid value hidden behind a later duplicate', file: 'programs/denver.ndjson', line: 2, path: '$.fundingStatus', message: /^duplicate key "fundingStatus"/,
    plant: (root) => editLine(join(root, 'programs/denver.ndjson'), 2, `{"fundingStatus": "open", ${readFileSync(join(root, 'programs/denver.ndjson'), 'utf8').split('\n')[1]?.slice(1)}`) },
  { what: 'a duplicate key in manifest.json', file: 'manifest.json', line: 3, path: '$.dataset', message: /^duplicate key "dataset"/,
    plant: (root) => insertLine(join(root, 'manifest.json'), 3, '  "dataset": "shadow-dataset",') },
  { what: 'a duplicate key in vocabularies.json', file: 'vocabularies.json', line: 66, path: '$.projectAliases.hvac', message: /^duplicate key "hvac"/,
    plant: (root) => insertLine(join(root, 'vocabularies.json'), 66, '    "hvac": "electrical",') },
  { what: 'a duplicate key in a report record', file: 'reports/fact-audit-latest.json', line: 28, path: '$.records[0].field', message: /^duplicate key "field"/,
    plant: (root) => insertLine(join(root, 'reports/fact-audit-latest.json'), 28, '      "field": "url",') },
  { what: 'a lone surrogate in a value', file: 'programs/houston.ndjson', line: 2, path: '$.description', message: /^string holds a lone surrogate \\ud800/,
    plant: (root) => editLine(join(root, 'programs/houston.ndjson'), 2, (row) => { row.description = 'roof \ud800 repair'; }) },
  { what: 'a lone surrogate in a key', file: 'programs/houston.ndjson', line: 3, path: '$["\\udc00note"]', message: /^key holds a lone surrogate \\udc00/,
    plant: (root) => editLine(join(root, 'programs/houston.ndjson'), 3, (row) => { row['\udc00note'] = 'kept'; }) },
  // A reviewed row: its id must still count as known, or the review would be reported too.
  { what: 'bytes that are not UTF-8 in a program row', file: 'programs/atlanta.ndjson', line: 4, path: '$', message: /^holds bytes that are not UTF-8/,
    plant: (root) => replaceWithBytes(join(root, 'programs/atlanta.ndjson'), 4, '"name": "', [0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x20, 0x22, 0xe9]) },
  { what: 'bytes that are not UTF-8 in manifest.json', file: 'manifest.json', line: 2, path: '$', message: /^holds bytes that are not UTF-8/,
    plant: (root) => replaceWithBytes(join(root, 'manifest.json'), 2, 'demo', [0x64, 0xe9, 0x6d, 0x6f]) },
  { what: 'a number beyond the double range in an unknown key', file: 'programs/detroit.ndjson', line: 2, path: '$.note', message: /^number 1E400 is beyond the range of an IEEE 754 double/,
    plant: (root) => appendMembers(join(root, 'programs/detroit.ndjson'), 2, '"note": 1E400') },
  { what: 'a negative number beyond the double range, nested', file: 'programs/detroit.ndjson', line: 5, path: '$.extra[1]', message: /^number -1e999 is beyond the range of an IEEE 754 double/,
    plant: (root) => appendMembers(join(root, 'programs/detroit.ndjson'), 5, '"extra": [1, -1e999]') },
  { what: 'nesting deeper than the canonical encoder can follow', file: 'programs/cleveland.ndjson', line: 2, path: `$.deep${'[0]'.repeat(MAX_JSON_DEPTH - 1)}`, message: /^nests deeper than 64 levels/,
    plant: (root) => appendMembers(join(root, 'programs/cleveland.ndjson'), 2, `"deep": ${'['.repeat(6_000)}${']'.repeat(6_000)}`) },
  { what: 'a byte-order mark in a program file', file: 'programs/pittsburgh.ndjson', line: 1, path: '$', message: /^byte-order mark at start of file/,
    plant: (root) => prependBytes(join(root, 'programs/pittsburgh.ndjson'), BYTE_ORDER_MARK) },
  { what: 'a byte-order mark in manifest.json', file: 'manifest.json', line: 1, path: '$', message: /^byte-order mark at start of file/,
    plant: (root) => prependBytes(join(root, 'manifest.json'), BYTE_ORDER_MARK) },
  { what: 'a contract version this code does not serve', file: 'manifest.json', line: 3, path: '$.contractVersion', message: new RegExp(`^is "1\\.5\\.0", but this code serves contract version "${API_VERSION.replace(/\./g, '\\.')}"`),
    plant: (root) => replaceText(join(root, 'manifest.json'), `"contractVersion": "${API_VERSION}"`, '"contractVersion": "1.5.0"') },
];
