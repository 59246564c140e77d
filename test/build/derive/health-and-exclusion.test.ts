/** Health's counting rule and the exclusion policy, on the fixture and on a variant with a repeated program. */
import * as assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { ProgramRow } from '../../../build/corpus/corpus-types.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { createExclusionClassifier } from '../../../build/derive/classify-exclusion.ts';
import { normalizedHost } from '../../../build/derive/tally-health.ts';
import { buildAndPublish } from '../../../build/snapshot/publish-snapshot.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const scratch = makeTempDir('hra-health-');
after(() => rmSync(scratch, { recursive: true, force: true }));

function healthOf(corpusDir: string, out: string): Record<string, unknown> {
  const { file } = buildAndPublish(loadCorpus(corpusDir), join(scratch, out));
  const db = new Database(file, { readonly: true });
  const part = (name: string) => (db.prepare('SELECT body FROM documents WHERE name = ?').get(name) as { body: Buffer }).body.toString();
  const text = `${part('health:head')}null${part('health:tail')}`;
  db.close();
  return JSON.parse(text) as Record<string, unknown>;
}

describe('dataset health', () => {
  const health = healthOf('test/fixtures/mini-corpus', 'a');

  it('counts rows of the live cities, withheld ones included, and licensed rows apart', () => {
    assert.equal(health.totalPrograms, 11);
    assert.equal(health.licensedPrograms, 8);
    assert.equal(health.quarantinedPrograms, 1);
    assert.equal(health.outOfScopePrograms, 2);
    assert.equal(health.citiesCovered, 3);
    assert.equal(health.maintainedFederalCanonicalRows, 4);
  });

  it('reports link health over all rows and over licensed rows', () => {
    assert.deepEqual(health.linkHealth, { live: 5, dead: 1, 'bot-blocked': 1, unchecked: 4 });
    assert.deepEqual(health.licensedLinkHealth, { live: 5, dead: 1, 'bot-blocked': 1, unchecked: 1 });
    assert.equal(health.lastLinkCheck, '2026-11-11');
  });

  it('counts exact normalized source hosts of licensed rows', () => {
    assert.deepEqual(health.licensedSourceDomainCounts, { 'alpha.example.org': 4, 'beta.example.org': 2, 'gamma.example.org': 1, 'state.example.org': 1 });
    assert.equal(normalizedHost('https://WWW.Example.ORG/path'), 'example.org');
    assert.equal(normalizedHost(null), undefined);
  });

  it('keeps rows, distinct names and locally unique programs separate when one program repeats across cities', () => {
    const dir = join(scratch, 'repeated');
    cpSync('test/fixtures/mini-corpus', dir, { recursive: true });
    const beta = readFileSync(join(dir, 'programs/beta.ndjson'), 'utf8').split('\n');
    const stateLoan = beta.find((line) => line.includes('"state-loan"')) ?? '';
    writeFileSync(join(dir, 'programs/alpha.ndjson'), `${readFileSync(join(dir, 'programs/alpha.ndjson'), 'utf8')}${stateLoan}\n`);
    const repeated = healthOf(dir, 'b');
    assert.equal(repeated.totalPrograms, 12, 'one more row');
    assert.equal(repeated.licensedPrograms, 9);
    assert.equal(repeated.distinctPrograms, health.distinctPrograms, 'no new distinct name');
    assert.equal(repeated.locallyUniquePrograms, (health.locallyUniquePrograms as number) - 1, 'the name is no longer local to one city');
  });
});

describe('exclusion policy', () => {
  const row = (fields: Partial<ProgramRow>): ProgramRow => ({ id: 'p', name: 'Program', source: 's', eligibilityType: ['homeowner'], fundingStatus: 'available', url: null, ...fields });
  const classify = createExclusionClassifier(
    [
      { id: 'bills', match: { category: 'utility-bill-assistance' }, reason: 'r' },
      { id: 'flagged', match: { scope: 'adjacent' }, reason: 'r' },
      { id: 'rent', match: { nameContains: 'RENT relief', category: 'housing' }, reason: 'r' },
    ],
    [{ city: 'alpha', programId: 'q', reason: 'r', since: '2026-01-01' }],
  );
  const cases: Array<[string, string, ProgramRow, string]> = [
    ['an ordinary row is served', 'alpha', row({}), 'served'],
    ['a category rule withholds', 'alpha', row({ category: 'utility-bill-assistance' }), 'adjacent'],
    ['the internal scope flag withholds', 'alpha', row({ scope: 'adjacent' }), 'adjacent'],
    ['every key of a rule must match', 'alpha', row({ name: 'Rent Relief Fund' }), 'served'],
    ['a two-key rule matches case-insensitively', 'alpha', row({ name: 'City Rent Relief Fund', category: 'housing' }), 'adjacent'],
    ['quarantine is per city', 'beta', row({ id: 'q' }), 'served'],
    ['quarantine wins over scope', 'alpha', row({ id: 'q', scope: 'adjacent' }), 'quarantined'],
  ];
  for (const [name, city, input, expected] of cases) it(name, () => assert.equal(classify(city, input), expected));
});
