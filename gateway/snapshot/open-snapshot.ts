/**
 * Opens a published snapshot read-only and exposes the typed reads the routes need. The file is immutable:
 * no writer can exist, so no locking is needed and every read is a cheap indexed lookup.
 *
 * "Immutable" is a promise operators can break (a file edited, copied over, truncated or deleted in place),
 * so a snapshot can fail: once the gateway notices its file changed (watch-served-file.ts) or a read meets a
 * storage error (any SqliteError: the statements are fixed, so an error from one is the file's), the
 * snapshot is failed for good and every read throws 503 DATASET_UNAVAILABLE. Its SQLite connection may hold
 * pages of the altered file, so it is never trusted again: a file that verifies is opened afresh.
 *
 * A read can beat that notice, so every unit read (a document, a city row, a city's record rows, a change
 * row) is checked against the digest the file recorded (read-verifier.ts), read once at open and trusted
 * because the file verifies after it (load-snapshot.ts); a mismatch fails the snapshot as a write does.
 */
import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { envelopeLinks, type EnvelopeLinks } from '../../build/contract/envelope-links.ts';
import type { ReadinessInputs } from '../../build/contract/readiness-inputs.ts';
import { inspectSnapshot } from '../../build/snapshot/inspect-snapshot.ts';
import { DOCUMENT, type MetaKey, type WithholdingPolicy } from '../../build/snapshot/snapshot-format.ts';
import { parseRevision, type Revision } from '../../build/contract/parse-revision.ts';
import { parseReadDigests, type HeldDigests } from '../../build/snapshot/read-digests.ts';
import { datasetUnavailable } from './dataset-unavailable.ts';
import { createReadVerifier, ReadMismatchError } from './read-verifier.ts';

/** A precomputed response body with its strong ETag. */
export interface StoredDocument {
  body: Buffer;
  etag: string;
}

/**
 * One stored record of a city collection, with the facets filters match on. A withheld record carries
 * no body: filters only count it in `excludedBySafetyPolicy`.
 */
export type StoredRecord =
  | { id: string; withheld: 'served'; facets: RecordFacets; body: Buffer }
  | { id: string; withheld: WithholdingPolicy; facets: RecordFacets };

/** Filter facets as the build stored them (see build/derive/program-facets.ts). */
export interface RecordFacets {
  type: string[];
  income: string[];
  project: string[];
  /** Null: no population restriction, so every `special` value matches. */
  special: string[] | null;
  category: string | null;
  status: string;
}

/** A record's bytes within its collection body: [offset, offset + length). */
export interface RecordPlace {
  offset: number;
  length: number;
}

/** A stored change event. */
export interface StoredChange {
  id: number;
  city: string;
  detectedAt: string;
  visible: boolean;
  body: Buffer;
}

/** A live city row as stored. */
export interface StoredCity {
  slug: string;
  programCount: number;
  cityBody: Buffer;
  countsBody: Buffer;
}

/** Thrown when a file cannot serve as a snapshot; the message is the one line an operator reads. */
export class SnapshotRejectedError extends Error {
  override readonly name = 'SnapshotRejectedError';
}

/** The read side of one immutable snapshot. */
export interface Snapshot {
  readonly file: string;
  readonly revision: Revision;
  readonly apiVersion: string;
  readonly defaultCity: string;
  readonly sampleCity: string;
  readonly exclusionPolicyVersion: number;
  /** The program envelopes' `docs` and `openapi`, when the build named a public base URL. */
  readonly envelopeLinks: EnvelopeLinks | undefined;
  /** Query value (canonical type or alias, lowercase) -> canonical project type. */
  readonly projectAliases: ReadonlyMap<string, string>;
  readonly readinessInputs: ReadinessInputs;
  document(name: string): StoredDocument | undefined;
  collection(city: string): StoredDocument | undefined;
  /** Every stored record of a city: the served ones in served order, then the withheld ones. */
  cityRecords(city: string): StoredRecord[];
  /**
   * Where a served record's bytes lie in its city's collection body (`collection(city)`), or undefined.
   * Reads only the served-records table, where withheld records do not exist, so a withheld id and an
   * unknown one take the same miss (spec 4.3).
   */
  servedRecordPlace(city: string, id: string): RecordPlace | undefined;
  cities(): StoredCity[];
  city(slug: string): StoredCity | undefined;
  /** Visible and withheld events with id <= maxId and id < beforeId, newest first, optionally of one city. */
  changes(query: { maxId: number; beforeId: number; city?: string; limit: number }): StoredChange[];
  maxChangeId(): number;
  /**
   * Why this snapshot's file can no longer be trusted (changed in place, deleted, a storage error), or
   * undefined while it serves. Set once by `fail` and never cleared: a recovered file is opened afresh.
   */
  readonly failure: string | undefined;
  /** Fails the snapshot (the first reason wins): from now on every read throws 503 DATASET_UNAVAILABLE. */
  fail(reason: string): void;
  /** Calls `listener` once when the snapshot fails, at once when it already has. */
  onFail(listener: (reason: string) => void): void;
  close(): void;
}

// Served records' places kept per city (about 100 bytes each): a few MB, whatever the snapshot's scale.
const MAX_KEPT_PLACES = 50_000;

/** Opens `file`; throws SnapshotRejectedError when it is missing, not a snapshot, or of an unknown format. */
export function openSnapshot(file: string): Snapshot {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new SnapshotRejectedError(`cannot open snapshot ${file}: ${(error as Error).message}`);
  }
  try {
    const failed = inspectSnapshot(db, { deep: false }).find((result) => !result.ok);
    if (failed && !failed.ok) throw new SnapshotRejectedError(`snapshot ${file} refused: ${failed.check}: ${failed.reason}`);
    return readSnapshot(db, file);
  } catch (error) {
    db.close();
    if (error instanceof SnapshotRejectedError) throw error;
    throw new SnapshotRejectedError(`snapshot ${file} refused: ${(error as Error).message}`);
  }
}

function readSnapshot(db: Database.Database, file: string): Snapshot {
  // Immutable file, read-only connection: take the shared lock once instead of once per statement
  // (halves a record read). Only a writer could be blocked, and a published snapshot never has one.
  db.pragma('locking_mode = EXCLUSIVE');
  const meta = new Map((db.prepare('SELECT key, value FROM meta').all() as Array<{ key: MetaKey; value: string }>).map((row) => [row.key, row.value]));
  const need = (key: MetaKey) => {
    const value = meta.get(key);
    if (value === undefined) throw new SnapshotRejectedError(`snapshot ${file} refused: meta ${key} is missing`);
    return value;
  };
  const publicBaseUrl = meta.get('public_base_url');
  const revision = parseRevision(need('revision'));
  if (!revision) throw new SnapshotRejectedError(`snapshot ${file} refused: meta revision is not a gm1 revision`);
  let held: HeldDigests;
  try {
    held = parseReadDigests(db.prepare('SELECT kind, keys, digests FROM read_digests').all() as Array<{ kind: string; keys: string; digests: Buffer }>);
  } catch (error) {
    throw new SnapshotRejectedError(`snapshot ${file} refused: format: ${(error as Error).message}`);
  }
  const verify = createReadVerifier(held, file);
  const cityCount = held.count('city');
  const documentQuery = db.prepare('SELECT body, etag FROM documents WHERE name = ?');
  const fixedDocuments = new Map<string, StoredDocument | undefined>();
  const placesByCity = new LRUCache<string, Map<string, RecordPlace>>({ maxSize: MAX_KEPT_PLACES, sizeCalculation: (places) => places.size + 1 });
  // Format 4: a served record's bytes are a slice of its city's collection document, stored once.
  const servedQuery = db.prepare('SELECT id, facets, body_offset AS offset, body_length AS length FROM programs WHERE city = ? ORDER BY ord');
  const withheldQuery = db.prepare('SELECT id, policy, facets FROM withheld_programs WHERE city = ? ORDER BY ord');
  const citiesQuery = db.prepare('SELECT slug, program_count AS programCount, city_body AS cityBody, counts_body AS countsBody FROM cities ORDER BY ord');
  const cityQuery = db.prepare('SELECT slug, program_count AS programCount, city_body AS cityBody, counts_body AS countsBody FROM cities WHERE slug = ?');
  const changesQuery = db.prepare('SELECT id, city, detected_at AS detectedAt, visible, body FROM changes WHERE id <= ? AND id < ? ORDER BY id DESC LIMIT ?');
  const cityChangesQuery = db.prepare('SELECT id, city, detected_at AS detectedAt, visible, body FROM changes WHERE city = ? AND id <= ? AND id < ? ORDER BY id DESC LIMIT ?');
  const maxChangeQuery = db.prepare('SELECT coalesce(max(id), 0) AS maxId FROM changes');
  const facetsOf = (text: string) => JSON.parse(text) as RecordFacets;
  const toChange = (row: Omit<StoredChange, 'visible'> & { visible: number }): StoredChange => ({ ...row, visible: row.visible === 1 });
  const maxChangeId = (maxChangeQuery.get() as { maxId: number }).maxId;
  // Each unit read is checked before anything uses it (read-verifier.ts).
  const readDocument = (name: string) => {
    const row = documentQuery.get(name) as StoredDocument | undefined;
    verify.document(name, row);
    return row;
  };
  const readCity = (slug: string, row: StoredCity | undefined) => {
    verify.rows('city', slug, row === undefined ? [] : [[row.slug, row.programCount, row.cityBody, row.countsBody]]);
    return row;
  };
  type ServedRow = { id: string; facets: string; offset: number; length: number };
  const readServed = (city: string) => {
    const rows = servedQuery.all(city) as ServedRow[];
    verify.rows('served', city, rows.map((row) => [row.id, row.facets, row.offset, row.length]));
    return rows;
  };

  let failure: string | undefined;
  const failListeners: Array<(reason: string) => void> = [];
  const fail = (reason: string) => {
    if (failure !== undefined) return;
    failure = reason;
    for (const listener of failListeners.splice(0)) listener(reason);
  };
  // Every read of the file goes through here: none once the snapshot failed, and a storage error fails it.
  const read = <T>(run: () => T): T => {
    if (failure !== undefined) throw datasetUnavailable();
    try {
      return run();
    } catch (error) {
      if (error instanceof ReadMismatchError) {
        fail(error.message);
        throw datasetUnavailable();
      }
      if (error instanceof Database.SqliteError || error instanceof SnapshotRejectedError) {
        fail(`storage error reading ${file}: ${error instanceof Database.SqliteError ? `${error.code}: ` : ''}${error.message}`);
        throw datasetUnavailable();
      }
      throw error;
    }
  };

  return {
    file,
    revision,
    apiVersion: need('api_version'),
    defaultCity: need('default_city'),
    sampleCity: need('sample_city'),
    exclusionPolicyVersion: Number(need('exclusion_policy_version')),
    envelopeLinks: publicBaseUrl === undefined ? undefined : envelopeLinks(publicBaseUrl),
    projectAliases: new Map(Object.entries(JSON.parse(need('project_aliases')) as Record<string, string>)),
    readinessInputs: JSON.parse(need('readiness_inputs')) as ReadinessInputs,
    document: (name) => read(() => {
      // The fixed documents (sample, health parts, schemas, reports, city lists) are few and immutable:
      // read each once. Collections, one per city, go through the routes' bounded caches instead.
      if (name.startsWith('collection:')) return readDocument(name);
      if (!fixedDocuments.has(name)) fixedDocuments.set(name, readDocument(name));
      return fixedDocuments.get(name);
    }),
    collection: (city) => read(() => readDocument(DOCUMENT.collection(city))),
    cityRecords: (city) => read(() => {
      const served = readServed(city);
      // Every record's bytes in one read: slices of the collection, which they make up almost entirely.
      const collection = served.length === 0 ? undefined : readDocument(DOCUMENT.collection(city))?.body;
      const withheld = withheldQuery.all(city) as Array<{ id: string; policy: WithholdingPolicy; facets: string }>;
      verify.rows('withheld', city, withheld.map((row) => [row.id, row.policy, row.facets]));
      const bodyOf = (row: { offset: number; length: number }) => {
        if (collection === undefined || row.offset + row.length > collection.length) throw new SnapshotRejectedError(`snapshot ${file}: record bytes of ${city} lie outside its collection`);
        return collection.subarray(row.offset, row.offset + row.length);
      };
      return [
        ...served.map((row): StoredRecord => ({ id: row.id, withheld: 'served', facets: facetsOf(row.facets), body: bodyOf(row) })),
        ...withheld.map((row): StoredRecord => ({ id: row.id, withheld: row.policy, facets: facetsOf(row.facets) })),
      ];
    }),
    servedRecordPlace: (city, id) => read(() => {
      // The city's rows, not the one: a digest covers a city's rows together. Checked once, then kept, so a
      // miss (unknown and withheld ids alike, which no route caches) does not read and hash them again.
      let places = placesByCity.get(city);
      if (places === undefined) {
        places = new Map(readServed(city).map((row) => [row.id, { offset: row.offset, length: row.length }]));
        placesByCity.set(city, places);
      }
      return places.get(id);
    }),
    cities: () => read(() => {
      const rows = citiesQuery.all() as StoredCity[];
      for (const row of rows) readCity(row.slug, row);
      if (rows.length !== cityCount) throw new ReadMismatchError(`the served file ${file} no longer holds the bytes that were verified: ${rows.length} cities read, ${cityCount} verified`);
      return rows;
    }),
    city: (slug) => read(() => readCity(slug, cityQuery.get(slug) as StoredCity | undefined)),
    changes: (query) => read(() => {
      const { maxId, beforeId, city, limit } = query;
      const rows = (city === undefined ? changesQuery.all(maxId, beforeId, limit) : cityChangesQuery.all(city, maxId, beforeId, limit)) as Array<Parameters<typeof toChange>[0] & { visible: number }>;
      verify.changes(query, rows);
      return rows.map(toChange);
    }),
    maxChangeId: () => maxChangeId,
    get failure() {
      return failure;
    },
    fail,
    onFail: (listener) => {
      if (failure === undefined) failListeners.push(listener);
      else listener(failure);
    },
    close: () => db.close(),
  };
}
