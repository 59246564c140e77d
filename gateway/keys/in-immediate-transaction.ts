/**
 * A Kysely transaction that starts with SQLite's `BEGIN IMMEDIATE`. Kysely's own `transaction()` issues
 * a deferred `BEGIN`: a transaction that reads and then writes would upgrade its lock midway, and under
 * WAL a concurrent writer makes that upgrade fail at once with SQLITE_BUSY instead of waiting for the
 * busy timeout. Taking the write lock up front makes concurrent CLI writers queue instead.
 */
import { sql, type Kysely } from 'kysely';

/** Runs `work` on one connection inside `BEGIN IMMEDIATE` ... `COMMIT`, rolling back if it throws. */
export async function inImmediateTransaction<Db, T>(kysely: Kysely<Db>, work: (db: Kysely<Db>) => Promise<T>): Promise<T> {
  return kysely.connection().execute(async (db) => {
    await sql`begin immediate`.execute(db);
    let result: T;
    try {
      result = await work(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
    await sql`commit`.execute(db);
    return result;
  });
}
