/** The bench's plain SQLite baseline writes the very rows of a built snapshot, every table's, into a new file. */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { buildAndPublish } from '../../../build/snapshot/publish-snapshot.ts';
import { SNAPSHOT_INDEXES } from '../../../build/snapshot/snapshot-format.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const ROOT = join(import.meta.dirname, '../../..');
const SCRIPT = join(ROOT, 'scripts/bench/snapshot-rows-baseline.ts');

describe('snapshot-rows-baseline.ts', () => {
  const work = makeTempDir('hra-rows-baseline-');
  after(() => rmSync(work, { recursive: true, force: true }));

  it('writes every row of every table of the snapshot, the same cells, with its tables, indexes and pragmas', () => {
    const snapshot = buildAndPublish(loadCorpus(join(ROOT, 'corpus')), join(work, 'out')).file;
    const rowsFile = join(work, 'rows.bin');
    const out = join(work, 'baseline.sqlite');
    execFileSync(process.execPath, ['--import', 'tsx', SCRIPT, 'dump', snapshot, rowsFile], { cwd: ROOT });
    const printed = execFileSync(process.execPath, ['--import', 'tsx', SCRIPT, 'write', rowsFile, out], { cwd: ROOT, encoding: 'utf8' });
    const a = new Database(snapshot, { readonly: true });
    const b = new Database(out, { readonly: true });
    try {
      const schema = (db: Database.Database) => db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').raw().all();
      assert.deepEqual(schema(b), schema(a));
      assert.equal((schema(b) as unknown[][]).filter((row) => row[0] === 'index').length, SNAPSHOT_INDEXES.length);
      for (const pragma of ['application_id', 'user_version', 'page_size', 'journal_mode']) assert.equal(b.pragma(pragma, { simple: true }), a.pragma(pragma, { simple: true }), pragma);
      let rows = 0;
      let bytes = 0;
      for (const table of a.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]) {
        const all = (db: Database.Database) => db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw().all() as unknown[][];
        const expected = all(a);
        assert.ok(expected.length > 0, `${table} has rows`);
        assert.deepEqual(all(b), expected, table);
        rows += expected.length;
        for (const row of expected) for (const cell of row) if (typeof cell === 'string' || Buffer.isBuffer(cell)) bytes += Buffer.byteLength(cell as string | Buffer);
      }
      assert.equal(printed, `${rows} ${bytes}\n`);
    } finally {
      a.close();
      b.close();
    }
  });
});
