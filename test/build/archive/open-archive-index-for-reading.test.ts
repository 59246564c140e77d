/** openArchiveIndexForReading: an index that is not one, or is locked, is one line naming index.sqlite. */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openArchiveIndex } from '../../../build/archive/archive-index.ts';
import { ArchiveIndexError, openArchiveIndexForReading } from '../../../build/archive/open-archive-index-for-reading.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-index-read-');
let made = 0;

function archiveWith(write: (file: string) => void): string {
  const dir = join(work, `case-${++made}`);
  mkdirSync(dir);
  write(join(dir, 'index.sqlite'));
  return dir;
}

const good = archiveWith(() => {});
openArchiveIndex(good).close();

describe('openArchiveIndexForReading', () => {
  const cases: Array<[string, (file: string) => void, RegExp]> = [
    ['a file that is not SQLite', (file) => writeFileSync(file, 'not a database at all, just text '.repeat(200)), /: not an SQLite database, so not an archive index$/],
    ['an empty file', (file) => writeFileSync(file, ''), /: is empty, not an archive index$/],
    ['a database of another schema', (file) => new Database(file).exec('CREATE TABLE other (x)').close(), /: not the schema an archive index has \(no such table: index_\w+\)$/],
    ['a rows table without its columns', (file) => new Database(file).exec('CREATE TABLE index_files (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE index_uris (id INTEGER PRIMARY KEY, uri TEXT); CREATE TABLE index_rows (record_id TEXT)').close(), /: not the schema an archive index has \(.*column/],
    // The first schema's one wide table (before issue 39): rebuilt by reindex, so the line names it.
    ['an index of the first schema', (file) => new Database(file).exec('CREATE TABLE records (record_id TEXT PRIMARY KEY)').close(), /: an index of the first schema .*; rebuild it with hra archive reindex --archive/],
    ['a truncated index', (file) => writeFileSync(file, readFileSync(join(good, 'index.sqlite')).subarray(0, 100)), /: (damaged|not an SQLite database)/],
    ['a directory', (file) => mkdirSync(file), /: not a regular file, so not an archive index$/],
  ];
  for (const [name, write, problem] of cases) {
    it(`refuses ${name}, naming the file`, () => {
      const dir = archiveWith(write);
      assert.throws(() => openArchiveIndexForReading(dir).close(), (error: Error) => error instanceof ArchiveIndexError
        && error.message.startsWith(join(dir, 'index.sqlite')) && problem.test(error.message));
    });
  }

  it('waits a bounded time for a lock another process holds, then names that process', async () => {
    const dir = archiveWith((file) => copyFileSync(join(good, 'index.sqlite'), file));
    const file = join(dir, 'index.sqlite');
    const holder = spawn(process.execPath, ['-e', `
      const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
      db.pragma('journal_mode = DELETE'); db.exec('BEGIN EXCLUSIVE'); console.log('held'); setInterval(() => {}, 1000);`],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
      const started = Date.now();
      assert.throws(() => openArchiveIndexForReading(dir), (error: Error) => error instanceof ArchiveIndexError
        && new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: locked for more than 5 s, held by process ${holder.pid} \\(`).test(error.message));
      assert.ok(Date.now() - started < 30_000, 'the wait is bounded');
    } finally {
      holder.kill();
    }
  });
});
