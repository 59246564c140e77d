/**
 * The plain SQLite baseline a build is measured against (BENCHMARKS.md "Method"): what writing a corpus's
 * program rows to SQLite costs with nothing else done. It reads every program file of the corpus (the
 * cities' and national.ndjson) and inserts one row per line, the line's own bytes as its body, into one
 * table in one transaction, with the snapshot's pragmas (write-snapshot.ts), then indexes it by (city, id)
 * and closes it. No parsing, validation, derivation or digest: the floor any build of those rows stands on.
 *
 *   node <hra's node flags> scripts/bench/sqlite-baseline.ts <corpus dir> <out file>
 *
 * Prints `rows bytes` on stdout.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const [corpusDir, outFile] = process.argv.slice(2);
if (corpusDir === undefined || outFile === undefined) throw new Error('usage: sqlite-baseline.ts <corpus dir> <out file>');

const db = new Database(outFile);
db.pragma('journal_mode = DELETE');
db.pragma('page_size = 4096');
db.pragma('synchronous = OFF');
db.exec('CREATE TABLE rows (city TEXT NOT NULL, line INTEGER NOT NULL, body BLOB NOT NULL)');
const insert = db.prepare('INSERT INTO rows (city, line, body) VALUES (?, ?, ?)');
const files = [['national', join(corpusDir, 'national.ndjson')], ...readdirSync(join(corpusDir, 'programs')).sort().map((name) => [name.slice(0, -'.ndjson'.length), join(corpusDir, 'programs', name)])] as const;
let rows = 0;
let bytes = 0;
db.exec('BEGIN');
for (const [city, path] of files) {
  const text = readFileSync(path);
  let start = 0;
  let line = 0;
  while (start < text.length) {
    const end = text.indexOf(0x0a, start);
    const stop = end < 0 ? text.length : end;
    line += 1;
    if (stop > start) {
      insert.run(city, line, text.subarray(start, stop));
      rows += 1;
      bytes += stop - start;
    }
    start = stop + 1;
  }
}
db.exec('COMMIT');
db.exec('CREATE INDEX rows_by_city ON rows (city, line)');
db.close();
process.stdout.write(`${rows} ${bytes}\n`);
