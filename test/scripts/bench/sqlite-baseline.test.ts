/** The bench's plain SQLite baseline writes one row per program row of the corpus, with its bytes. */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { NATIONAL_SLUG } from '../../../build/contract/national-slug.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const ROOT = join(import.meta.dirname, '../../..');

describe('sqlite-baseline.ts', () => {
  const work = makeTempDir('hra-sqlite-baseline-');
  after(() => rmSync(work, { recursive: true, force: true }));

  it('inserts every program row of the corpus (cities and national) as its own bytes', () => {
    const corpusDir = join(ROOT, 'corpus');
    const file = join(work, 'baseline.sqlite');
    const printed = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/bench/sqlite-baseline.ts'), corpusDir, file], { cwd: ROOT, encoding: 'utf8' });
    const corpus = loadCorpus(corpusDir);
    const rows = [...corpus.programIds.values()].reduce((sum, ids) => sum + ids.size, 0);
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.prepare('SELECT count(*) FROM rows').pluck().get(), rows);
      const national = db.prepare("SELECT body FROM rows WHERE city = 'national' ORDER BY line").pluck().all() as Buffer[];
      assert.equal(national.length, corpus.programIds.get(NATIONAL_SLUG)?.size);
      assert.deepEqual(national.map((body) => body.toString('utf8')), readFileSync(join(corpusDir, 'national.ndjson'), 'utf8').split('\n').filter((line) => line !== ''));
      const bytes = db.prepare('SELECT sum(length(body)) FROM rows').pluck().get();
      assert.equal(printed, `${rows} ${bytes}\n`);
    } finally {
      db.close();
    }
  });
});
