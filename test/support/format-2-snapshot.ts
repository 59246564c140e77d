/**
 * Rewrites a copy of a current snapshot into the layout of snapshot format 2, as builds before issue 11
 * wrote it (every record in `programs`, with a `withheld` column), so tests can hand `hra changes detect`
 * the previous snapshot an operator still has after upgrading.
 */
import { copyFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Writes the format-2 layout of `file` to `out`, keeping every record, facet and body. */
export function writeFormat2Copy(file: string, out: string, formatVersion = 2): string {
  copyFileSync(file, out);
  const db = new Database(out);
  try {
    db.exec(`
      CREATE TABLE programs_v2 (city TEXT NOT NULL, id TEXT NOT NULL, ord INTEGER NOT NULL, withheld TEXT NOT NULL, facets TEXT NOT NULL, body BLOB NOT NULL);
      INSERT INTO programs_v2 SELECT city, id, ord, 'served', facets, body FROM programs
        UNION ALL SELECT city, id, ord, policy, facets, body FROM withheld_programs ORDER BY 1, 3;
      DROP TABLE programs;
      DROP TABLE withheld_programs;
      ALTER TABLE programs_v2 RENAME TO programs;
      CREATE UNIQUE INDEX programs_by_city_id ON programs (city, id);
    `);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'format_version'").run(String(formatVersion));
    db.pragma(`user_version = ${formatVersion}`);
  } finally {
    db.close();
  }
  return out;
}
