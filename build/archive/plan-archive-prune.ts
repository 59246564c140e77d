/**
 * Decides what `hra archive prune` keeps: every record written within the window; every record a line of the
 * corpus's evidence names, unless a later line of the same subject that decides names a record the archive
 * holds; the redirect hops that lead a kept link line's URL to its record (what binds a verdict to its URL,
 * evidence-record-binding.ts); the response each kept revisit repeats; the request record of each kept response or revisit. The
 * rest is expired. Worked out in SQL beside the index (TEMP tables), so memory does not grow with the archive.
 */
import type { Database } from 'better-sqlite3';
import { encodedRecordId } from './archive-index.ts';
import { INDEX_RECORDS_TABLE as records, loadEvidenceTable, type EvidenceTableCounts } from './load-evidence-table.ts';

/** Why a record is kept. */
export const KEEP_REASONS = ['window', 'bound', 'redirect', 'repeated', 'request'] as const;
/** One of KEEP_REASONS. */
export type KeepReason = (typeof KEEP_REASONS)[number];

/** What happens to one archive file. */
export interface FilePrunePlan {
  /** Relative to the archive folder, as the index names it. */
  readonly file: string;
  readonly keptRecords: number;
  readonly expiredRecords: number;
  /** Bytes of the expired records' gzip members. */
  readonly expiredBytes: number;
  /** `remove`: every record expired; `rewrite`: kept members are copied into a new file. */
  readonly action: 'remove' | 'rewrite';
}

/** The plan: files to touch, and counts for the summary. */
export interface ArchivePrunePlan {
  readonly evidence: EvidenceTableCounts;
  readonly kept: Readonly<Record<KeepReason, number>>;
  readonly expiredRecords: number;
  readonly files: readonly FilePrunePlan[];
}

/** The redirect rows from a URL to a record's URI dated no later than `notAfter` (follow-archived-redirects.ts). */
export type RedirectChain = (fromUrl: string, toUri: string, notAfter: string) => Promise<ReadonlyArray<{ recordId: string }> | undefined>;

/** Keeps the hops of each kept line whose record is of another URL its redirects lead to; unreadable hops are left to verify. */
async function keepRedirectHops(db: Database, redirectChain: RedirectChain): Promise<void> {
  const lines = db.prepare(`SELECT DISTINCT e.bound_uri, r.target_uri, r.warc_date FROM temp.evidence e
    JOIN ${records} r ON r.record_key = ${encodedRecordId('e.record_id')} JOIN temp.keep k ON k.record_id = e.record_id
    WHERE k.because = 'bound' AND e.replaced = 0 AND e.via_redirects = 1 AND e.bound_uri IS NOT NULL AND e.bound_uri != r.target_uri`)
    .all() as Array<{ bound_uri: string; target_uri: string; warc_date: string }>;
  const keep = db.prepare(`INSERT OR IGNORE INTO temp.keep VALUES (?, 'redirect')`);
  for (const line of lines) {
    const hops = await redirectChain(line.bound_uri, line.target_uri, line.warc_date).catch(() => undefined);
    for (const hop of hops ?? []) keep.run(hop.recordId);
  }
}

/**
 * Fills `temp.keep(record_id, because)` and `temp.expired(record_id)` and returns the files with expired records. `cutoff` is an ISO
 * date-time: records whose `warc_date` is earlier are past the window.
 */
export async function planArchivePrune(db: Database, corpusDir: string, cutoff: string, redirectChain?: RedirectChain): Promise<ArchivePrunePlan> {
  const evidence = await loadEvidenceTable(db, corpusDir);
  db.exec(`DROP TABLE IF EXISTS temp.keep;
    CREATE TEMP TABLE keep (record_id TEXT PRIMARY KEY, because TEXT NOT NULL) WITHOUT ROWID`);
  db.prepare(`INSERT INTO temp.keep SELECT record_id, 'window' FROM ${records} WHERE warc_date >= ?`).run(cutoff);
  db.exec(`INSERT OR IGNORE INTO temp.keep SELECT DISTINCT e.record_id, 'bound' FROM temp.evidence e
    JOIN ${records} r ON r.record_key = ${encodedRecordId('e.record_id')} WHERE e.replaced = 0`);
  if (redirectChain !== undefined) await keepRedirectHops(db, redirectChain);
  const repeated = db.prepare(`INSERT OR IGNORE INTO temp.keep SELECT DISTINCT r.refers_to, 'repeated' FROM ${records} r
    JOIN temp.keep k ON k.record_id = r.record_id JOIN ${records} t ON t.record_key = r.refers_key WHERE r.type = 'revisit'`);
  const requests = db.prepare(`INSERT OR IGNORE INTO temp.keep SELECT q.record_id, 'request' FROM ${records} q
    JOIN temp.keep k ON k.record_id = q.concurrent_to WHERE q.type = 'request'`);
  // A revisit repeats a response; should one ever repeat a revisit, the loop follows the chain to its end.
  while (repeated.run().changes > 0);
  requests.run();
  const kept = Object.fromEntries(KEEP_REASONS.map((reason) => [reason, 0])) as Record<KeepReason, number>;
  for (const row of db.prepare('SELECT because, COUNT(*) AS n FROM temp.keep GROUP BY because').all() as Array<{ because: KeepReason; n: number }>) kept[row.because] = row.n;
  const files = (db.prepare(`SELECT r.file,
      SUM(k.record_id IS NOT NULL) AS keptRecords, SUM(k.record_id IS NULL) AS expiredRecords,
      SUM(CASE WHEN k.record_id IS NULL THEN r.length ELSE 0 END) AS expiredBytes
    FROM ${records} r LEFT JOIN temp.keep k ON k.record_id = r.record_id
    GROUP BY r.file HAVING SUM(k.record_id IS NULL) > 0 ORDER BY r.file`).all() as Array<Omit<FilePrunePlan, 'action'>>)
    .map((file) => ({ ...file, action: file.keptRecords === 0 ? 'remove' as const : 'rewrite' as const }));
  // Fixed now: a record written after this plan (a revisit of an expired response) is not expired by it.
  db.exec(`DROP TABLE IF EXISTS temp.expired;
    CREATE TEMP TABLE expired (record_id TEXT PRIMARY KEY) WITHOUT ROWID;
    INSERT INTO temp.expired SELECT r.record_id FROM ${records} r LEFT JOIN temp.keep k ON k.record_id = r.record_id WHERE k.record_id IS NULL`);
  const expiredRecords = files.reduce((sum, file) => sum + file.expiredRecords, 0);
  return { evidence, kept, expiredRecords, files };
}
