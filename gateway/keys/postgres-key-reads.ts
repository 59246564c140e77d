/**
 * The reads the gateway's key cache makes of PostgreSQL: one key's row with the store state it was read
 * under, the store state alone (the 250 ms probe), and the current rows of many cached keys (the
 * periodic revalidation).
 *
 * The store state is more than the version counter. The trigger that moves the counter announces only
 * changes made through it: `DROP TABLE api_keys`, a `pg_dump --clean` restore (drop, create, COPY, then
 * the trigger re-created), a table renamed into place, or `TRUNCATE` and writes with the trigger disabled
 * move nothing. So the state also names the table's identity (its oid and its file node, which a
 * TRUNCATE or a rewrite replaces) and whether the trigger is present and enabled.
 */
import type pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { KeyStoreUnavailableError } from './key-errors.ts';
import type { KeyRowForVerdict } from './key-lookup.ts';
import { keyChangeTrigger, type PostgresKeyStoreDatabase } from './postgres-key-migrations.ts';

/** A row as the store holds it: `null` for a well-formed key the store does not hold. */
export type StoredKeyRow = KeyRowForVerdict | null;

/** What a cache's rows were read under: any change of it means they may be stale. */
export interface KeyStoreState {
  readonly version: bigint;
  /** `<oid>/<file node>` of `api_keys`, or null when there is no such table. */
  readonly table: string | null;
  /** Whether the trigger announcing changes is on `api_keys` and enabled. */
  readonly announced: boolean;
}

/** One lookup's row read together with the version and table it was read from (one statement). */
export interface VersionedRow {
  readonly version: bigint;
  readonly table: string;
  readonly row: StoredKeyRow;
}

type NullableRow = { [K in keyof KeyRowForVerdict]: KeyRowForVerdict[K] | null };

function toStoredRow({ id, tier, cities, created_at, expires_at, revoked_at }: NullableRow): StoredKeyRow {
  return id === null || tier === null || created_at === null ? null : { id, tier, cities, created_at, expires_at, revoked_at };
}

/** Reads the row of `digest`, the store version and the table's identity in one statement. */
export async function fetchVersionedRow(db: Kysely<PostgresKeyStoreDatabase>, digest: string): Promise<VersionedRow> {
  const { rows } = await sql<{ version: string; table_id: string } & NullableRow>`
    SELECT s.version, 'api_keys'::regclass::oid || '/' || pg_relation_filenode('api_keys'::regclass) AS table_id,
      k.id, k.tier, k.cities, k.created_at, k.expires_at, k.revoked_at
    FROM key_store_state s LEFT JOIN api_keys k ON k.secret_digest = ${digest}`.execute(db);
  const found = rows[0];
  if (found === undefined) throw new KeyStoreUnavailableError('key store has no key_store_state row');
  return { version: BigInt(found.version), table: found.table_id, row: toStoredRow(found) };
}

/** Reads the store state on the listening connection (bounded by its query timeout). */
export async function readKeyStoreState(client: pg.Client): Promise<KeyStoreState> {
  // to_regclass, not a cast: a dropped table is a state to report (the cache empties), not an error.
  const { rows } = await client.query<{ version: string; table_id: string | null; announced: boolean }>(`
    SELECT s.version, c.oid || '/' || pg_relation_filenode(c.oid) AS table_id,
      EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = $1 AND t.tgenabled <> 'D') AS announced
    FROM key_store_state s LEFT JOIN pg_class c ON c.oid = to_regclass('api_keys')`, [keyChangeTrigger]);
  const found = rows[0];
  if (found === undefined) throw new Error('key_store_state has no row');
  return { version: BigInt(found.version), table: found.table_id, announced: found.announced };
}

/** The current rows of the keys whose digests are given, by digest; a digest the store lacks is absent. */
export async function fetchRowsByDigest(db: Kysely<PostgresKeyStoreDatabase>, digests: readonly string[]): Promise<Map<string, KeyRowForVerdict>> {
  const { rows } = await sql<{ secret_digest: string } & KeyRowForVerdict>`
    SELECT secret_digest, id, tier, cities, created_at, expires_at, revoked_at
    FROM api_keys WHERE secret_digest = ANY(${[...digests]}::text[])`.execute(db);
  return new Map(rows.map(({ secret_digest, ...row }) => [secret_digest, row]));
}

/** Whether two stored rows would be judged alike: every column the verdict reads is equal. */
export function sameStoredRow(a: StoredKeyRow, b: StoredKeyRow): boolean {
  if (a === null || b === null) return a === b;
  return a.id === b.id && a.tier === b.tier && a.cities === b.cities && a.created_at === b.created_at
    && a.expires_at === b.expires_at && a.revoked_at === b.revoked_at;
}
