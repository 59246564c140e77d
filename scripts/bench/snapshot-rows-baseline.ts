/**
 * The plain SQLite build a build is measured against (BENCHMARKS.md "Method", item 11): the very rows a
 * built snapshot holds, every table's, written into a fresh file with the snapshot's pragmas, tables and
 * indexes, in one transaction, from input already parsed. It is the one baseline (issue 43 kept it over
 * writing the corpus lines, about half the bytes a snapshot stores): the same rows, so a build against it
 * is its cost over exactly its writes. The rows are dumped from the built snapshot to a flat file before
 * anything is timed (`dump`), and read back from that file, a piece at a time, by the timed run (`write`).
 *
 *   node <hra's node flags> scripts/bench/snapshot-rows-baseline.ts dump <snapshot.sqlite> <rows file>
 *   node <hra's node flags> scripts/bench/snapshot-rows-baseline.ts write <rows file> <out file>
 *
 * `write` prints `rows bytes` on stdout (bytes: the cells' lengths, text as UTF-8).
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { createSnapshotTables } from '../../build/snapshot/create-snapshot-tables.ts';
import { SNAPSHOT_INDEXES, SNAPSHOT_TABLES } from '../../build/snapshot/snapshot-format.ts';

/** The tables in the order their rows are dumped and written: the order write-snapshot.ts creates them. */
const TABLES = SNAPSHOT_TABLES.map((sql) => /^CREATE TABLE (\w+)/.exec(sql)![1]!);

// A row: u8 table, u16 cells; a cell: u8 kind, then a float64 (number) or a u32 length and the bytes (text, blob).
const NULL = 0;
const NUMBER = 1;
const TEXT = 2;
const BLOB = 3;

/** Writes every row of every table of `snapshot` to `rowsFile`, in each table's stored order. */
export function dumpSnapshotRows(snapshot: string, rowsFile: string): void {
  const db = new Database(snapshot, { readonly: true, fileMustExist: true });
  const fd = openSync(rowsFile, 'w');
  try {
    const head = Buffer.alloc(13);
    TABLES.forEach((table, tableIndex) => {
      for (const row of db.prepare(`SELECT * FROM ${table}`).raw().iterate() as Iterable<unknown[]>) {
        head.writeUInt8(tableIndex, 0);
        head.writeUInt16LE(row.length, 1);
        writeSync(fd, head, 0, 3);
        for (const cell of row) {
          if (cell === null) {
            head.writeUInt8(NULL, 0);
            writeSync(fd, head, 0, 1);
          } else if (typeof cell === 'number') {
            head.writeUInt8(NUMBER, 0);
            head.writeDoubleLE(cell, 1);
            writeSync(fd, head, 0, 9);
          } else {
            const bytes = Buffer.isBuffer(cell) ? cell : Buffer.from(String(cell), 'utf8');
            head.writeUInt8(Buffer.isBuffer(cell) ? BLOB : TEXT, 0);
            head.writeUInt32LE(bytes.length, 1);
            writeSync(fd, head, 0, 5);
            writeSync(fd, bytes);
          }
        }
      }
    });
  } finally {
    closeSync(fd);
    db.close();
  }
}

/** Reads a rows file a piece at a time: `take(n)` returns the next n bytes (valid until the next call). */
function chunkedReader(fd: number): { take(length: number): Buffer; atEnd(): boolean } {
  let buffer = Buffer.alloc(16 * 1024 * 1024);
  let start = 0;
  let end = 0;
  let eof = false;
  const fill = (length: number) => {
    if (end - start >= length) return;
    if (buffer.length < length) {
      const grown = Buffer.alloc(length * 2);
      buffer.copy(grown, 0, start, end);
      buffer = grown;
    } else buffer.copy(buffer, 0, start, end);
    end -= start;
    start = 0;
    while (!eof && end - start < length) {
      const read = readSync(fd, buffer, end, buffer.length - end, null);
      if (read === 0) eof = true;
      end += read;
    }
    if (end - start < length) throw new Error('rows file ends inside a row');
  };
  return {
    take(length) {
      fill(length);
      start += length;
      return buffer.subarray(start - length, start);
    },
    atEnd() {
      if (end > start) return false;
      fill(0);
      if (!eof) {
        end = readSync(fd, buffer, 0, buffer.length, null);
        start = 0;
        if (end === 0) eof = true;
      }
      return end === start;
    },
  };
}

/** Writes the rows of `rowsFile` into a new snapshot-shaped file `out`; returns what it wrote. */
export function writeSnapshotRows(rowsFile: string, out: string): { rows: number; bytes: number } {
  const fd = openSync(rowsFile, 'r');
  const db = new Database(out);
  try {
    // The pragmas, tables and indexes of write-snapshot.ts.
    createSnapshotTables(db);
    const inserts = new Map<string, Database.Statement>();
    const insertInto = (table: string, cells: number) => {
      const key = `${table}/${cells}`;
      let statement = inserts.get(key);
      if (statement === undefined) {
        statement = db.prepare(`INSERT INTO ${table} VALUES (${Array.from({ length: cells }, () => '?').join(', ')})`);
        inserts.set(key, statement);
      }
      return statement;
    };
    const reader = chunkedReader(fd);
    let rows = 0;
    let bytes = 0;
    db.exec('BEGIN');
    while (!reader.atEnd()) {
      const head = reader.take(3);
      const table = TABLES[head.readUInt8(0)]!;
      const count = head.readUInt16LE(1);
      const cells: unknown[] = [];
      for (let index = 0; index < count; index++) {
        const kind = reader.take(1).readUInt8(0);
        if (kind === NULL) cells.push(null);
        else if (kind === NUMBER) cells.push(reader.take(8).readDoubleLE(0));
        else {
          const length = reader.take(4).readUInt32LE(0);
          const cell = reader.take(length);
          // Copied: the reader's buffer is reused by the next take.
          cells.push(kind === TEXT ? cell.toString('utf8') : Buffer.from(cell));
          bytes += length;
        }
      }
      insertInto(table, count).run(...cells);
      rows += 1;
    }
    db.exec('COMMIT');
    for (const sql of SNAPSHOT_INDEXES) db.exec(sql);
    return { rows, bytes };
  } finally {
    db.close();
    closeSync(fd);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [mode, from, to] = process.argv.slice(2);
  if ((mode !== 'dump' && mode !== 'write') || from === undefined || to === undefined) {
    throw new Error('usage: snapshot-rows-baseline.ts dump <snapshot.sqlite> <rows file> | write <rows file> <out file>');
  }
  if (mode === 'dump') dumpSnapshotRows(from, to);
  else {
    const { rows, bytes } = writeSnapshotRows(from, to);
    process.stdout.write(`${rows} ${bytes}\n`);
  }
}
