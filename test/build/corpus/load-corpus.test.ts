/**
 * The corpus loader: the demo corpus is clean, a copy with 24 planted faults reports exactly those 20, and
 * each input the revision could not hash reproducibly is refused alone, at its file, line and path.
 */
import * as assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { CorpusInvalidError, formatProblem, type CorpusProblem } from '../../../build/corpus/corpus-problem.ts';
import { MAX_JSON_DEPTH } from '../../../build/corpus/find-json-violations.ts';
import { createProgramFileCheck, type ProgramFileChecker } from '../../../build/corpus/check-program-file.ts';
import { loadCorpus, readCityPrograms, type LoadCorpusOptions } from '../../../build/corpus/load-corpus.ts';
import { computeRevision } from '../../../build/revision/compute-revision.ts';
import { jsonTextModel } from './json-text-model.ts';
import { appendMembers, editLine, faults, inPlantedCopy, problemsOf, replaceText, uncanonical } from './planted-faults.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

/** Every problem loadCorpus reports for a planted copy of `source`. */
function loadPlanted(source: string, plant: (root: string) => void, options: LoadCorpusOptions = {}): readonly CorpusProblem[] {
  return inPlantedCopy(source, plant, (root) => problemsOf(root, options));
}


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

  describe('with 24 planted faults', () => {
    let root: string;
    let problems: readonly CorpusProblem[];
    before(() => {
      const scratch = makeTempDir('hra-faults-');
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

    it('plants twenty-four faults of different kinds', () => {
      assert.equal(faults.length, 24);
      assert.equal(new Set(faults.map((fault) => fault.what)).size, 24);
    });

    it('reports exactly the twenty-four problems, no more', () => {
      assert.equal(problems.length, 24, problems.map(formatProblem).join('\n'));
    });

    it('lists them in the corpus\'s order (files, program files, cross-file rules), whatever order it reads the files in', () => {
      assert.deepEqual(problems.map(({ file, line, path }) => `${file}:${line} ${path}`), [
        'corpus/cities.ndjson:2 $.stateAbbr', 'corpus/cities.ndjson:3 $.lat',
        'corpus/evidence/link-checks.ndjson:1 $.pageClass', 'corpus/evidence/link-checks.ndjson:2 $.checkedAt',
        'corpus/evidence/source-reviews.ndjson:1 $.amountQuote', 'corpus/evidence/quote-checks.ndjson:3 $.statedAmounts',
        'corpus/evidence/quote-checks.ndjson:4 $.reason', 'corpus/corrections.ndjson:1 $.field',
        'corpus/programs/atlanta.ndjson:4 $', 'corpus/programs/baltimore.ndjson:3 $.projectTypes[0]',
        'corpus/programs/chicago.ndjson:2 $.source', 'corpus/programs/chicago.ndjson:5 $.id', 'corpus/programs/denver.ndjson:2 $.url',
        'corpus/programs/detroit.ndjson:3 $.fundingStatus', 'corpus/programs/houston.ndjson:7 $',
        // A correction that breaks its row is found with the row.
        'corpus/corrections.ndjson:3 $.value',
        'corpus/manifest.json:6 $.sampleCity', 'corpus/policy/quarantine.ndjson:1 $.programId',
        'corpus/evidence/source-reviews.ndjson:2 $.programId', 'corpus/evidence/quote-checks.ndjson:1 $.programId',
        'corpus/evidence/quote-checks.ndjson:2 $.reviewedAt', 'corpus/corrections.ndjson:2 $.programId',
        'corpus/changes.ndjson:4 $.city', 'corpus/changes.ndjson:6 $.id',
      ]);
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

  describe('refuses, alone, each input the revision could not hash reproducibly', () => {
    for (const fault of uncanonical) {
      it(`reports ${fault.what} at ${fault.file}:${fault.line} ${fault.path.length > 40 ? `${fault.path.slice(0, 40)}…` : fault.path}`, () => {
        const problems = loadPlanted('corpus', fault.plant);
        assert.equal(problems.length, 1, problems.map(formatProblem).join('\n'));
        const [found] = problems;
        assert.equal(found?.file, `corpus/${fault.file}`);
        assert.equal(found?.line, fault.line);
        assert.equal(found?.path, fault.path);
        assert.match(found?.message ?? '', fault.message);
      });
    }
  });

  it('hashes escaped and literal spellings of the same text alike, as RFC 8785 decodes both', () => {
    const revisionOf = (plant: (root: string) => void) =>
      inPlantedCopy('test/fixtures/mini-corpus', plant, (root) => computeRevision(loadCorpus(root)).revision);
    const file = (root: string) => join(root, 'programs/alpha.ndjson');
    const literal = revisionOf((root) => appendMembers(file(root), 2, '"note": "Ñandú 😀 a:b", "n": 1.50'));
    const escaped = revisionOf((root) => appendMembers(file(root), 2, '"note": "\\u00d1and\\u00FA \\ud83d\\ude00 a\\u003ab", "n": 15e-1'));
    assert.equal(escaped, literal);
  });

  it('either refuses a value, exactly when RFC 8785 has no form for it, or digests it (validate never passes what digest cannot hash)', () => {
    const scratch = makeTempDir('hra-any-json-');
    const root = join(scratch, 'corpus');
    cpSync('test/fixtures/mini-corpus', root, { recursive: true });
    const programs = join(root, 'programs/alpha.ndjson');
    const report = join(root, 'reports/fact-audit-latest.json');
    const pristine = { programs: readFileSync(programs, 'utf8'), report: readFileSync(report, 'utf8') };
    try {
      fc.assert(fc.property(jsonTextModel, fc.boolean(), (model, inReport) => {
        writeFileSync(programs, pristine.programs);
        writeFileSync(report, pristine.report);
        // In a row the value sits at level 2; in the report, under "manifest" (level 2) and "extra" (level 3).
        if (inReport) replaceText(report, '"method": "fixture",', `"method": "fixture", "extra": ${model.text},`);
        else appendMembers(programs, 2, `"extra": ${model.text}`);
        const canonical = model.canonical && (inReport ? 2 : 1) + model.depth <= MAX_JSON_DEPTH;
        let corpus;
        try {
          corpus = loadCorpus(root);
        } catch (error) {
          assert.ok(error instanceof CorpusInvalidError, String(error));
          assert.ok(!canonical, `refused ${model.text}: ${error.message}`);
          const where = inReport ? 'corpus/reports/fact-audit-latest.json:6 $.manifest.extra' : 'corpus/programs/alpha.ndjson:2 $.extra';
          for (const problem of error.problems) assert.ok(formatProblem(problem).startsWith(where), formatProblem(problem));
          return;
        }
        assert.ok(canonical, `accepted ${model.text}`);
        assert.match(computeRevision(corpus).revision, /^gm1-[a-f0-9]{64}$/);
      }), { numRuns: 150 });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('names the file of a missing required file', () => {
    const scratch = makeTempDir('hra-missing-');
    try {
      cpSync('test/fixtures/mini-corpus', join(scratch, 'corpus'), { recursive: true });
      rmSync(join(scratch, 'corpus', 'cities.ndjson'));
      assert.throws(() => loadCorpus(join(scratch, 'corpus')), (error: unknown) =>
        error instanceof CorpusInvalidError && error.problems.some((problem) => problem.file === 'corpus/cities.ndjson' && /missing/.test(problem.message)));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  describe('reports schema, vocabulary and cross-file problems together', () => {
    it('a row with a bad fundingStatus and an unknown category: both, at its line', () => {
      const problems = loadPlanted('test/fixtures/mini-corpus', (root) => editLine(join(root, 'programs/alpha.ndjson'), 1, (row) => {
        row.fundingStatus = 'maybe';
        row.category = 'roofing-x';
      }));
      const found = problems.map(({ file, line, path }) => `${file}:${line} ${path}`);
      assert.deepEqual(found.sort(), ['corpus/programs/alpha.ndjson:1 $.category', 'corpus/programs/alpha.ndjson:1 $.fundingStatus']);
      assert.match(problems.find((problem) => problem.path === '$.category')?.message ?? '', /"roofing-x" is not in vocabularies\.json categories/);
    });

    it('an invalid vocabularies.json does not hide the rows\' own problems', () => {
      const problems = loadPlanted('test/fixtures/mini-corpus', (root) => {
        const file = join(root, 'vocabularies.json');
        writeFileSync(file, readFileSync(file, 'utf8').replace('"categories"', '"kategories"'));
        editLine(join(root, 'programs/alpha.ndjson'), 1, (row) => {
          row.fundingStatus = 'maybe';
        });
      });
      assert.ok(problems.some((problem) => problem.file === 'corpus/vocabularies.json'), problems.map(formatProblem).join('\n'));
      assert.ok(problems.some((problem) => problem.file === 'corpus/programs/alpha.ndjson' && problem.line === 1 && problem.path === '$.fundingStatus'), problems.map(formatProblem).join('\n'));
    });
  });

  describe('refuses a link-check attempt whose outcome contradicts its recorded status (the checker\'s outcome rules)', () => {
    // [outcome, httpStatus, refused?]: refusals name the rules' outcomes for that status.
    const cases: ReadonlyArray<[string, number | null, RegExp | undefined]> = [
      ['live', 404, /^"live" contradicts httpStatus 404: the outcome rules allow bot-blocked or dead$/],
      ['dead', 429, /^"dead" contradicts httpStatus 429: the outcome rules allow bot-blocked or inconclusive$/],
      ['inconclusive', 403, /^"inconclusive" contradicts httpStatus 403: the outcome rules allow bot-blocked$/],
      ['live', null, /^"live" contradicts no response \(httpStatus null\): the outcome rules allow inconclusive$/],
      ['inconclusive', 200, /^"inconclusive" contradicts httpStatus 200: the outcome rules allow bot-blocked or dead or live$/],
      ['inconclusive', 429, undefined],
      ['dead', 200, undefined],
      // Rule 1: a challenge header makes any status bot-blocked, and the record keeps no headers.
      ['bot-blocked', 429, undefined],
    ];
    for (const [outcome, httpStatus, message] of cases) {
      it(`${outcome} with ${String(httpStatus)}: ${message === undefined ? 'accepted' : 'refused at its line, $.outcome'}`, () => {
        const problems = loadPlanted('test/fixtures/mini-corpus', (root) => {
          const file = join(root, 'evidence/link-checks.ndjson');
          const attempt = { url: 'https://example.org/planted', checkedAt: '2026-01-05', outcome, httpStatus, ...(outcome === 'live' ? { pageClass: 'program' } : {}) };
          writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify(attempt)}\n`);
        });
        if (message === undefined) return assert.deepEqual(problems, []);
        const lines = readFileSync('test/fixtures/mini-corpus/evidence/link-checks.ndjson', 'utf8').trimEnd().split('\n').length;
        assert.deepEqual(problems.map(({ file, line, path }) => ({ file, line, path })), [{ file: 'corpus/evidence/link-checks.ndjson', line: lines + 1, path: '$.outcome' }]);
        assert.match(problems[0]?.message ?? '', message);
      });
    }
  });

  it('has the cities\' program files checked by the checker it is given, and takes their ids and problems from it', () => {
    const asked: string[] = [];
    const planted: CorpusProblem = { file: 'corpus/programs/beta.ndjson', line: 1, path: '$.planted', message: 'reported by the checker' };
    const checker: ProgramFileChecker = {
      *checkFiles(files, rules) {
        const check = createProgramFileCheck(rules);
        for (const file of files) {
          asked.push(file.file);
          const { ids, problems } = check(file);
          yield file.slug === 'beta' ? { ids: [...ids, 'known-to-the-checker'], problems: [...problems, planted] } : { ids, problems };
        }
      },
    };
    const problems = loadPlanted('test/fixtures/mini-corpus', (root) => {
      // A review of a record only the checker knows is not reported: the ids are the checker's.
      const reviews = join(root, 'evidence/source-reviews.ndjson');
      editLine(reviews, 1, (row) => { row.city = 'beta'; row.programId = 'known-to-the-checker'; row.kind = 'identity'; delete row.amountQuote; delete row.quoteFoundInPage; });
    }, { programFileChecker: checker });
    assert.deepEqual(asked, ['corpus/programs/alpha.ndjson', 'corpus/programs/beta.ndjson', 'corpus/programs/delta.ndjson', 'corpus/programs/gamma.ndjson']);
    assert.deepEqual(problems, [planted]);
  });

  it('accepts unknown keys in program rows (they are never served)', () => {
    const corpus = loadCorpus('test/fixtures/mini-corpus');
    const lead = readCityPrograms(corpus, 'alpha').find((row) => row.id === 'a-lead');
    assert.equal(lead?.internalNote, 'never served');
  });
});
