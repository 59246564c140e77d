/**
 * The live city slugs of a built dataset snapshot, so `hra keys create --dataset` can refuse trial
 * cities the service does not serve. The key store itself knows no dataset; without `--dataset` the
 * check is skipped and only the slug shape is enforced.
 */
import Database from 'better-sqlite3';

/**
 * Reads `SELECT slug FROM cities` from a snapshot, keeping only `status = 'live'` rows when the table
 * has a `status` column (snapshots may hold only live cities). Throws an Error naming the file.
 */
export function readLiveCitySlugs(datasetPath: string): ReadonlySet<string> {
  let db: Database.Database;
  try {
    db = new Database(datasetPath, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new Error(`dataset ${datasetPath} cannot be opened: ${describe(error)}`, { cause: error });
  }
  try {
    const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('cities')").all();
    const names = new Set(columns.map((column) => column.name));
    if (!names.has('slug')) throw new Error(`dataset ${datasetPath} has no cities table with a slug column`);
    const query = names.has('status')
      ? "SELECT slug FROM cities WHERE status = 'live'"
      : 'SELECT slug FROM cities';
    const rows = db.prepare<[], { slug: unknown }>(query).all();
    return new Set(rows.flatMap((row) => (typeof row.slug === 'string' ? [row.slug] : [])));
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(`dataset ${datasetPath}`)) throw error;
    throw new Error(`dataset ${datasetPath} cannot be read: ${describe(error)}`, { cause: error });
  } finally {
    db.close();
  }
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
