/**
 * The schema a snapshot must have: the `sqlite_master` rows (type, name, table, SQL) that the build's own
 * table- and index-creating code writes, taken by running that code on an empty in-memory database, so there
 * is no second copy to keep in step. A file with anything else (a view in a table's place, a trigger, an extra
 * table, a missing index) was not written by the build and is refused before any of its tables is queried.
 */
import Database from 'better-sqlite3';
import { createSnapshotIndexes, createSnapshotTables } from './create-snapshot-tables.ts';

/** One `sqlite_master` row. */
interface SchemaEntry {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  readonly sql: string | null;
}

// Ordered by name, then type: a name is unique across tables, indexes, views and triggers.
const SCHEMA_QUERY = 'SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name, type';

let expected: readonly SchemaEntry[] | undefined;

function expectedSchema(): readonly SchemaEntry[] {
  if (expected === undefined) {
    const db = new Database(':memory:');
    try {
      createSnapshotTables(db);
      createSnapshotIndexes(db);
      expected = db.prepare(SCHEMA_QUERY).all() as SchemaEntry[];
    } finally {
      db.close();
    }
  }
  return expected;
}

/** The first way `db`'s schema differs from the one the build writes, as a phrase; undefined when it is that one. */
export function findSchemaDifference(db: Database.Database): string | undefined {
  const actual = new Map((db.prepare(SCHEMA_QUERY).all() as SchemaEntry[]).map((entry) => [entry.name, entry]));
  const wanted = new Map(expectedSchema().map((entry) => [entry.name, entry]));
  for (const entry of actual.values()) {
    const want = wanted.get(entry.name);
    if (want === undefined) return `${entry.type} ${entry.name}${entry.type === 'table' ? '' : ` on ${entry.tbl_name}`} is not one the build writes`;
    if (entry.type !== want.type) return `${entry.name} is a ${entry.type}, where the build writes a ${want.type}`;
    if (entry.tbl_name !== want.tbl_name || entry.sql !== want.sql) return `${entry.type} ${entry.name} is not defined as the build defines it`;
  }
  for (const want of wanted.values()) if (!actual.has(want.name)) return `${want.type} ${want.name} is missing`;
  return undefined;
}

/** Whether `db` holds no view and no trigger and its `meta` is a table: what a reader of an older format needs before reading `meta`. */
export function findForeignSchemaObject(db: Database.Database): string | undefined {
  const entries = db.prepare(SCHEMA_QUERY).all() as SchemaEntry[];
  const foreign = entries.find((entry) => entry.type === 'view' || entry.type === 'trigger');
  if (foreign !== undefined) return `${foreign.type} ${foreign.name} is not one the build writes`;
  if (!entries.some((entry) => entry.name === 'meta' && entry.type === 'table')) return 'table meta is missing';
  return undefined;
}
