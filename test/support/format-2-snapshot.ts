/**
 * Rewrites a copy of a current (format 4) snapshot into the layout of an earlier format, as older builds
 * wrote it, so tests can hand `hra changes detect` the previous snapshot an operator still has after
 * upgrading. Format 3 stored each served record's bytes in `programs.body` (a copy of its slice of the
 * collection); format 2 also kept withheld records in `programs`, with a `withheld` column.
 */
import { copyFileSync } from 'node:fs';
import Database from 'better-sqlite3';

// A served record's bytes, cut from its city's collection document as format 4 stores them.
const SERVED_BODY = "substr(d.body, p.body_offset + 1, p.body_length)";
const SERVED_FROM = "programs p JOIN documents d ON d.name = 'collection:' || p.city";

/** Writes the format-2 layout of `file` to `out`, keeping every record, facet and body (other versions: the same layout, labelled so). */
export function writeFormat2Copy(file: string, out: string, formatVersion = 2): string {
  return rewrite(file, out, formatVersion, `
    CREATE TABLE programs_old (city TEXT NOT NULL, id TEXT NOT NULL, ord INTEGER NOT NULL, withheld TEXT NOT NULL, facets TEXT NOT NULL, body BLOB NOT NULL);
    INSERT INTO programs_old SELECT p.city, p.id, p.ord, 'served', p.facets, ${SERVED_BODY} FROM ${SERVED_FROM}
      UNION ALL SELECT city, id, ord, policy, facets, body FROM withheld_programs ORDER BY 1, 3;
    DROP TABLE programs;
    DROP TABLE withheld_programs;
    ALTER TABLE programs_old RENAME TO programs;
    CREATE UNIQUE INDEX programs_by_city_id ON programs (city, id);
  `);
}

/** Writes the format-3 layout of `file` to `out`: served bodies back in `programs`, withheld ones in their own table. */
export function writeFormat3Copy(file: string, out: string): string {
  return rewrite(file, out, 3, `
    CREATE TABLE programs_old (city TEXT NOT NULL, id TEXT NOT NULL, ord INTEGER NOT NULL, facets TEXT NOT NULL, body BLOB NOT NULL);
    INSERT INTO programs_old SELECT p.city, p.id, p.ord, p.facets, ${SERVED_BODY} FROM ${SERVED_FROM} ORDER BY 1, 3;
    DROP TABLE programs;
    ALTER TABLE programs_old RENAME TO programs;
    CREATE UNIQUE INDEX programs_by_city_id ON programs (city, id);
  `);
}

function rewrite(file: string, out: string, formatVersion: number, sql: string): string {
  copyFileSync(file, out);
  const db = new Database(out);
  try {
    db.exec(sql);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'format_version'").run(String(formatVersion));
    db.pragma(`user_version = ${formatVersion}`);
  } finally {
    db.close();
  }
  return out;
}
