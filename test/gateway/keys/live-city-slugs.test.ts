import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { readLiveCitySlugs } from '../../../gateway/keys/live-city-slugs.ts';

function snapshot(ddl: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'hra-dataset-')), 'snapshot.sqlite');
  const db = new Database(path);
  db.exec(ddl);
  db.close();
  return path;
}

describe('readLiveCitySlugs', () => {
  const readable: ReadonlyArray<[string, string, string[]]> = [
    [
      'a cities table with a status column',
      "CREATE TABLE cities (slug TEXT, status TEXT); INSERT INTO cities VALUES ('detroit','live'),('gary','paused'),('austin','live');",
      ['austin', 'detroit'],
    ],
    [
      'a cities table of live cities only',
      "CREATE TABLE cities (slug TEXT PRIMARY KEY, name TEXT); INSERT INTO cities VALUES ('detroit','Detroit');",
      ['detroit'],
    ],
  ];
  for (const [name, ddl, expected] of readable) {
    it(`reads ${name}`, () => {
      assert.deepEqual([...readLiveCitySlugs(snapshot(ddl))].sort(), expected);
    });
  }

  const unreadable: ReadonlyArray<[string, () => string, RegExp]> = [
    ['a missing file', () => join(tmpdir(), 'hra-no-such-dataset.sqlite'), /cannot be opened/],
    ['a snapshot without cities', () => snapshot('CREATE TABLE programs (id TEXT);'), /no cities table with a slug column/],
    ['a file that is not SQLite', () => { const path = join(mkdtempSync(join(tmpdir(), 'hra-dataset-')), 'x.sqlite'); writeFileSync(path, 'y'.repeat(2048)); return path; }, /cannot be read/],
  ];
  for (const [name, path, message] of unreadable) {
    it(`names the file for ${name}`, () => {
      const file = path();
      assert.throws(() => readLiveCitySlugs(file), (error: unknown) => {
        assert.ok(error instanceof Error);
        assert.match(error.message, message);
        assert.ok(error.message.includes(file));
        return true;
      });
    });
  }
});
