/** The corpus loader: the demo corpus is clean, and a copy with 20 planted faults reports exactly those 20. */
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CorpusInvalidError, formatProblem, type CorpusProblem } from '../../../build/corpus/corpus-problem.ts';
import { loadCorpus, readCityPrograms } from '../../../build/corpus/load-corpus.ts';

/** Rewrites line `line` (1-based) of an NDJSON file through `edit`, or replaces it with raw text. */
function editLine(file: string, line: number, edit: ((row: Record<string, unknown>) => void) | string): void {
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
function insertLine(file: string, line: number, text: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.splice(line - 1, 0, text);
  writeFileSync(file, lines.join('\n'));
}

function rowAt(file: string, line: number): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8').split('\n')[line - 1] ?? '') as Record<string, unknown>;
}

interface PlantedFault {
  what: string;
  file: string;
  line: number;
  path: string;
  message: RegExp;
  plant: (root: string) => void;
}

const faults: PlantedFault[] = [
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
  { what: 'sample city that is not live', file: 'manifest.json', line: 6, path: '$.sampleCity', message: /is pending, not live/,
    plant: (root) => {
      const file = join(root, 'manifest.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"sampleCity": "milwaukee"', '"sampleCity": "phoenix"'));
    } },
];

describe('loadCorpus', () => {
  it('loads the demo corpus with zero problems', () => {
    const corpus = loadCorpus('corpus');
    const live = corpus.cities.filter((city) => city.status === 'live');
    assert.ok(live.length >= 10, 'at least 10 live cities');
    assert.ok(new Set(live.map((city) => city.state)).size >= 7, 'in at least 7 states');
    assert.ok(corpus.cities.some((city) => city.status !== 'live'), 'at least one city that is not live');
    const rows = live.reduce((sum, city) => sum + readCityPrograms(corpus, city.slug).length, 0);
    assert.ok(rows >= 200, `at least 200 live program rows, found ${rows}`);
    assert.equal(corpus.national.length, 4);
  });

  describe('with 20 planted faults', () => {
    let root: string;
    let problems: readonly CorpusProblem[];
    before(() => {
      const scratch = mkdtempSync(join(tmpdir(), 'hra-faults-'));
      root = join(scratch, 'corpus');
      cpSync('corpus', root, { recursive: true });
      for (const fault of faults) fault.plant(root);
      try {
        loadCorpus(root);
        problems = [];
      } catch (error) {
        assert.ok(error instanceof CorpusInvalidError);
        problems = error.problems;
      }
    });
    after(() => rmSync(join(root, '..'), { recursive: true, force: true }));

    it('plants twenty faults of different kinds', () => {
      assert.equal(faults.length, 20);
      assert.equal(new Set(faults.map((fault) => fault.what)).size, 20);
    });

    it('reports exactly the twenty problems, no more', () => {
      assert.equal(problems.length, 20, problems.map(formatProblem).join('\n'));
    });

    for (const fault of faults) {
      it(`reports ${fault.what} at ${fault.file}:${fault.line} ${fault.path}`, () => {
        const found = problems.find((problem) => problem.file === `corpus/${fault.file}` && problem.line === fault.line && problem.path === fault.path);
        assert.ok(found, `not reported; got:\n${problems.map(formatProblem).join('\n')}`);
        assert.match(found.message, fault.message);
        assert.match(formatProblem(found), new RegExp(`^corpus/${fault.file.replace(/[.]/g, '\\.')}:${fault.line} `));
      });
    }
  });

  it('names the file of a missing required file', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'hra-missing-'));
    try {
      cpSync('test/fixtures/mini-corpus', join(scratch, 'corpus'), { recursive: true });
      rmSync(join(scratch, 'corpus', 'cities.ndjson'));
      assert.throws(() => loadCorpus(join(scratch, 'corpus')), (error: unknown) =>
        error instanceof CorpusInvalidError && error.problems.some((problem) => problem.file === 'corpus/cities.ndjson' && /missing/.test(problem.message)));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('accepts unknown keys in program rows (they are never served)', () => {
    const corpus = loadCorpus('test/fixtures/mini-corpus');
    const lead = readCityPrograms(corpus, 'alpha').find((row) => row.id === 'a-lead');
    assert.equal(lead?.internalNote, 'never served');
  });
});
