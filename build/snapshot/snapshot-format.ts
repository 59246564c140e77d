/**
 * The snapshot file's layout: the one contract between the build (writer) and the gateway (reader).
 * Bump SNAPSHOT_FORMAT_VERSION whenever a table, column or document name changes meaning.
 */

/** Identifies a home-repair-api snapshot; stored in `meta.format` and as SQLite's application_id. */
export const SNAPSHOT_FORMAT = 'hra-snapshot';
// 3: withheld records moved to `withheld_programs` (the detail lookup never touches them), and
// `programs.facets.special` is null for a record with no population restriction (was the whole vocabulary).
// 4: a served record's bytes are stored once, inside its city's collection document; `programs` holds
// their place in it (`body_offset`, `body_length`) instead of a second copy (a third of the file).
// 5: `read_digests` holds a digest of every unit the gateway reads (read-digests.ts), which it checks each
// read against, so no byte written over the served file after its check is ever served.
export const SNAPSHOT_FORMAT_VERSION = 5;
/**
 * Versions `hra changes detect` reads as its previous snapshot: the ones before this layout too, so the
 * first detection after an upgrade compares against the last published revision. Format 2 kept withheld
 * records in `programs` with a `withheld` column; format 3 moved them to `withheld_programs`; format 4
 * keeps a served record's bytes only in its city's collection document; format 5 adds `read_digests`,
 * which detection does not read.
 */
export const PREVIOUS_SNAPSHOT_FORMAT_VERSIONS = [2, 3, 4, SNAPSHOT_FORMAT_VERSION] as const;
/** SQLite `PRAGMA application_id` of every snapshot ("HRA1" as a big-endian integer). */
export const SNAPSHOT_APPLICATION_ID = 0x48524131;

/** Tables, created before the inserts; indexes come after them (STYLE 21). */
export const SNAPSHOT_TABLES = [
  'CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID',
  'CREATE TABLE documents (name TEXT PRIMARY KEY, body BLOB NOT NULL, etag TEXT NOT NULL) WITHOUT ROWID',
  'CREATE TABLE cities (slug TEXT PRIMARY KEY, ord INTEGER NOT NULL, program_count INTEGER NOT NULL, city_body BLOB NOT NULL, counts_body BLOB NOT NULL) WITHOUT ROWID',
  // A rowid table on purpose: a WITHOUT ROWID row keeps only about 1 KB on its page, so every record of
  // ~1.4 KB spilled into a nearly empty 4 KB overflow page (267 MB of pages for 79 MB of rows at 57k rows).
  // Served records only: the detail route reads this table alone, so a withheld id misses exactly as an
  // unknown one does (spec 4.3: the route is no oracle). `ord` is the record's place among all the
  // city's records, served and withheld. The record's bytes are those at [body_offset, body_offset +
  // body_length) of the document `collection:<city>`: every served byte is stored once.
  'CREATE TABLE programs (city TEXT NOT NULL, id TEXT NOT NULL, ord INTEGER NOT NULL, facets TEXT NOT NULL, body_offset INTEGER NOT NULL, body_length INTEGER NOT NULL)',
  // Withheld records: their facets count `excludedBySafetyPolicy` in filtered collections, their bodies
  // are what `hra changes detect` compares. `policy` says which rule withholds the row.
  'CREATE TABLE withheld_programs (city TEXT NOT NULL, id TEXT NOT NULL, ord INTEGER NOT NULL, policy TEXT NOT NULL, facets TEXT NOT NULL, body BLOB NOT NULL)',
  'CREATE TABLE changes (id INTEGER PRIMARY KEY, city TEXT NOT NULL, detected_at TEXT NOT NULL, visible INTEGER NOT NULL, body BLOB NOT NULL)',
  // One row per kind (read-digests.ts): a few rows, read whole at open, so holding them costs one read.
  'CREATE TABLE read_digests (kind TEXT PRIMARY KEY, keys TEXT NOT NULL, digests BLOB NOT NULL) WITHOUT ROWID',
] as const;

export const SNAPSHOT_INDEXES = [
  'CREATE UNIQUE INDEX programs_by_city_id ON programs (city, id)',
  'CREATE UNIQUE INDEX withheld_programs_by_city_id ON withheld_programs (city, id)',
  'CREATE INDEX changes_by_city ON changes (city, id)',
] as const;

/**
 * Keys of the `meta` table. `public_base_url` is there only when the manifest names one (files built before
 * it existed lack it too, and mean the same: envelopes without `docs` and `openapi`).
 */
export const META_KEYS = [
  'format', 'format_version', 'revision', 'api_version', 'dataset', 'default_city', 'sample_city',
  'exclusion_policy_version', 'as_of', 'revision_document', 'project_aliases', 'readiness_inputs', 'public_base_url',
  'content_digest',
] as const;
export type MetaKey = (typeof META_KEYS)[number];

/** Names of precomputed documents; collections are `collection:<slug>` and reports `report:<name>`. */
export const DOCUMENT = {
  cities: 'cities',
  cityCounts: 'cities-counts',
  healthHead: 'health:head',
  healthTail: 'health:tail',
  programSchema: 'schema',
  exportSchema: 'export-schema',
  sample: 'sample',
  national: 'collection:national',
  collection: (slug: string) => `collection:${slug}`,
  report: (name: string) => `report:${name}`,
} as const;

/** `withheld_programs.policy`: the policy that withholds the row. */
export type WithholdingPolicy = 'quarantined' | 'adjacent';

/** The tables whose rows the content digest covers, each read in primary-key order. */
export const CONTENT_QUERIES = [
  "SELECT key, value FROM meta WHERE key <> 'content_digest' ORDER BY key",
  'SELECT name, body, etag FROM documents ORDER BY name',
  'SELECT slug, ord, program_count, city_body, counts_body FROM cities ORDER BY slug',
  'SELECT city, id, ord, facets, body_offset, body_length FROM programs ORDER BY city, id',
  'SELECT city, id, ord, policy, facets, body FROM withheld_programs ORDER BY city, id',
  'SELECT id, city, detected_at, visible, body FROM changes ORDER BY id',
  'SELECT kind, keys, digests FROM read_digests ORDER BY kind',
] as const;
