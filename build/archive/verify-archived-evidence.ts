/**
 * `hra verify --archive`: checks that every record the corpus's evidence lines name is in the archive and
 * that its payload hashes to the digest the line binds (a revisit's through the response it repeats). The
 * lines stream into a TEMP table and are joined with index.sqlite in SQL; each payload is read once, in file
 * order, by offset and length: memory holds one payload at a time, whatever the archive's size. Each read
 * binds the row to its record's own headers (read-archived-record.ts), so the index's target URIs can then
 * be trusted to check each line against its own URL (evidence-record-binding.ts). Review lines and audit
 * rows are checked last, one at a time, against their records' cited URLs (check-review-references.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Corpus } from '../corpus/corpus-types.ts';
import { loadCorpus } from '../corpus/load-corpus.ts';
import { encodedRecordId } from './archive-index.ts';
import { checkReviewReferences, FACT_AUDIT_FILE, SOURCE_REVIEWS_FILE } from './check-review-references.ts';
import { checkRevisitRecord } from './check-revisit-record.ts';
import { citedUrlAt } from './cited-url-at.ts';
import { recordBindingProblem } from './evidence-record-binding.ts';
import { archivedRedirectsReach } from './follow-archived-redirects.ts';
import { INDEX_RECORDS_TABLE as records, loadEvidenceTable } from './load-evidence-table.ts';
import { asArchiveIndexError, openArchiveIndexForReading } from './open-archive-index-for-reading.ts';
import { ArchiveRecordError, readArchivedRecord } from './read-archived-record.ts';

/** What verifyArchivedEvidence needs besides the two folders. */
export interface VerifyArchivedEvidenceOptions {
  readonly archiveDir: string;
  readonly corpusDir: string;
  /** The corpus of `corpusDir`, when the caller has loaded it already; else it is loaded here if it has review lines or an audit report. */
  readonly corpus?: Corpus;
  readonly progress?: (message: string) => void;
}

/** The outcome: counts for the summary and one line per record missing or wrong. */
export interface ArchivedEvidenceReport {
  /** Evidence lines read. */
  readonly lines: number;
  /** Lines that name a record. */
  readonly archived: number;
  /** Lines without a record: "not archived", never a failure. */
  readonly notArchived: number;
  /** Distinct records the lines name. */
  readonly records: number;
  /** Distinct response payloads read and hashed. */
  readonly payloadsHashed: number;
  /** Records read: those responses, and each revisit named (its own member, its payload being its response's). */
  readonly recordsRead: number;
  /** Records absent from the index whose lines a later archived line replaces (as `hra archive prune` may leave them). */
  readonly replacedAndPruned: number;
  /** Review lines that name an archived page, and of them the model reviews whose exchange was checked. */
  readonly reviewLines: number;
  readonly reviewExchanges: number;
  /** Rows of reports/fact-audit-latest.json that name an archived record. */
  readonly auditRows: number;
  /** One line per record missing or wrong, naming it; empty when the archive holds what the evidence binds. */
  readonly problems: readonly string[];
}

const PAGE = 500;

/** Runs the check; the caller fails the command when `problems` is not empty. */
export async function verifyArchivedEvidence(options: VerifyArchivedEvidenceOptions): Promise<ArchivedEvidenceReport> {
  const index = openArchiveIndexForReading(options.archiveDir);
  const db = index.database;
  try {
    const counts = await loadEvidenceTable(db, options.corpusDir);
    const problems: string[] = [];
    // One row per named record: where the first line naming it is, how many lines do, and whether every one is replaced.
    db.exec(`CREATE TEMP TABLE named AS
      SELECT record_id, MIN(seq) AS first_seq, COUNT(*) AS lines, MIN(replaced) AS all_replaced,
        COUNT(DISTINCT payload_sha256) AS digests, MIN(payload_sha256) AS payload_sha256
      FROM temp.evidence GROUP BY record_id;
      CREATE INDEX temp.evidence_seq ON evidence (seq)`);
    const lineAt = db.prepare('SELECT file, line FROM temp.evidence WHERE seq = ?');
    const named = db.prepare('SELECT COUNT(*) AS n FROM temp.named').get() as { n: number };
    const where = (row: { first_seq: number; lines: number }) => {
      const first = lineAt.get(row.first_seq) as { file: string; line: number };
      return `named by ${join(options.corpusDir, first.file)}:${first.line}${row.lines > 1 ? ` and ${row.lines - 1} more line${row.lines > 2 ? 's' : ''}` : ''}`;
    };
    type NamedRow = { record_id: string; first_seq: number; lines: number; all_replaced: number; digests: number; payload_sha256: string };
    const unindexed = `FROM temp.named n LEFT JOIN ${records} r ON r.record_key = ${encodedRecordId('n.record_id')} WHERE r.record_id IS NULL`;
    // Counted, not listed: after years of prunes most absent records are replaced ones.
    const replacedAndPruned = (db.prepare(`SELECT COUNT(*) AS n ${unindexed} AND n.all_replaced = 1`).get() as { n: number }).n;
    for (const row of db.prepare(`SELECT n.* ${unindexed} AND n.all_replaced = 0 ORDER BY n.first_seq`).all() as NamedRow[]) {
      problems.push(`record ${row.record_id}: not in the archive (no index row), ${where(row)}`);
    }
    type JoinedRow = NamedRow & { rowid: number; type: string; file: string; indexed_sha256: string | null; refers_to: string | null; target_file: string | null; target_sha256: string | null; target_type: string | null };
    const joined = db.prepare(`SELECT n.rowid, n.*, r.type, r.file, r.payload_sha256 AS indexed_sha256, r.refers_to,
        t.file AS target_file, t.payload_sha256 AS target_sha256, t.type AS target_type
      FROM temp.named n JOIN ${records} r ON r.record_key = ${encodedRecordId('n.record_id')}
      LEFT JOIN ${records} t ON r.type = 'revisit' AND t.record_key = r.refers_key WHERE n.rowid > ? ORDER BY n.rowid LIMIT ?`);
    // In pages: naming a line runs a second statement, which an open iterator would not allow.
    for (let after = 0; ;) {
      const rows = joined.all(after, PAGE) as JoinedRow[];
      if (rows.length === 0) break;
      after = rows.at(-1)!.rowid;
      for (const row of rows) {
        const at = `${row.file} record ${row.record_id}`;
        if (row.type !== 'response' && row.type !== 'revisit') problems.push(`${at}: is a ${row.type} record, not a response, ${where(row)}`);
        else if (row.digests > 1) problems.push(`${at}: the evidence binds ${row.digests} different payload digests to it, ${where(row)}`);
        else if (row.indexed_sha256 !== row.payload_sha256) problems.push(`${at}: the evidence binds payload sha256 ${row.payload_sha256}, the archive indexes ${row.indexed_sha256 ?? 'none'}, ${where(row)}`);
        else if (row.type === 'revisit' && row.target_file === null) problems.push(`${at}: repeats ${row.refers_to ?? '(no WARC-Refers-To)'}, which is not in the archive, ${where(row)}`);
        else if (row.type === 'revisit' && (row.target_type !== 'response' || row.target_sha256 !== row.payload_sha256)) problems.push(`${at}: repeats ${row.refers_to}, whose payload digest is ${row.target_sha256 ?? 'none'}, not ${row.payload_sha256}, ${where(row)}`);
      }
    }
    // Every response whose bytes a line rests on, once, and every revisit named (its own member, not its
    // response again), in file order: sequential reads at any archive size.
    db.exec(`CREATE TEMP TABLE targets AS SELECT record_id, type FROM (
        SELECT t.record_id, t.type, t.file, t.offset FROM temp.named n
          JOIN ${records} r ON r.record_key = ${encodedRecordId('n.record_id')}
          JOIN ${records} t ON t.record_key = CASE WHEN r.type = 'revisit' THEN r.refers_key ELSE r.record_key END
          WHERE t.type = 'response'
        UNION
        SELECT r.record_id, r.type, r.file, r.offset FROM temp.named n JOIN ${records} r ON r.record_key = ${encodedRecordId('n.record_id')} WHERE r.type = 'revisit'
      ) ORDER BY file, offset`);
    const total = (db.prepare('SELECT COUNT(*) AS n FROM temp.targets').get() as { n: number }).n;
    const page = db.prepare('SELECT rowid, record_id, type FROM temp.targets WHERE rowid > ? ORDER BY rowid LIMIT ?');
    let hashed = 0;
    let read = 0;
    let reported = Date.now();
    for (let after = 0; ;) {
      const rows = page.all(after, PAGE) as Array<{ rowid: number; record_id: string; type: 'response' | 'revisit' }>;
      if (rows.length === 0) break;
      after = rows.at(-1)!.rowid;
      for (const row of rows) {
        try {
          if (row.type === 'revisit') await checkRevisitRecord(options.archiveDir, index.byRecordId(row.record_id)!);
          else {
            // The reader checks the member's record id and type, and that its payload hashes to its digest.
            await readArchivedRecord(options.archiveDir, index, row.record_id);
            hashed += 1;
          }
        } catch (error) {
          problems.push((error as Error).message);
        }
        read += 1;
      }
      if (Date.now() - reported > 2000) {
        reported = Date.now();
        options.progress?.(`verify: archive: ${read} of ${total} records read`);
      }
    }
    // Each line against its record's URL: the index's target_uri is the record's own for every record read
    // above without a problem, so SQL narrows the lines to those whose record is of another URL.
    type UnboundRow = { seq: number; file: string; line: number; record_id: string; bound_field: string; bound_uri: string | null; via_redirects: number; target_uri: string; warc_date: string; record_file: string };
    const unbound = db.prepare(`SELECT e.rowid, e.seq, e.file, e.line, e.record_id, e.bound_field, e.bound_uri, e.via_redirects,
        r.target_uri, r.warc_date, r.file AS record_file
      FROM temp.evidence e JOIN ${records} r ON r.record_key = ${encodedRecordId('e.record_id')}
      WHERE e.bound_uri IS NOT r.target_uri AND e.rowid > ? ORDER BY e.rowid LIMIT ?`);
    for (let after = 0; ;) {
      const rows = unbound.all(after, PAGE) as Array<UnboundRow & { rowid: number }>;
      if (rows.length === 0) break;
      after = rows.at(-1)!.rowid;
      for (const row of rows) {
        const binding = { field: row.bound_field, uri: row.bound_uri, viaRedirects: row.via_redirects === 1 };
        let problem: string | undefined;
        try {
          problem = await recordBindingProblem(binding, row.target_uri,
            (from, to) => archivedRedirectsReach(options.archiveDir, index, from, to, row.warc_date));
        } catch (error) {
          if (!(error instanceof ArchiveRecordError)) throw error;
          problem = `${binding.field} ${binding.uri} reaches it through a redirect the archive cannot give: ${error.message}`;
        }
        if (problem !== undefined) problems.push(`${row.record_file} record ${row.record_id}: ${problem}, named by ${join(options.corpusDir, row.file)}:${row.line}`);
      }
    }
    // A folder with evidence files alone (no review lines, no audit report) has nothing more to check.
    const hasReviews = [SOURCE_REVIEWS_FILE, FACT_AUDIT_FILE].some((file) => existsSync(join(options.corpusDir, file)));
    const corpus = options.corpus ?? (hasReviews ? loadCorpus(options.corpusDir) : undefined);
    const reviewed = corpus === undefined
      ? { reviewLines: 0, exchanges: 0, auditRows: 0, problems: [] }
      : await checkReviewReferences({ archiveDir: options.archiveDir, index, corpusDir: options.corpusDir, corpus, urlAt: citedUrlAt(corpus) });
    problems.push(...reviewed.problems);
    return {
      lines: counts.lines, archived: counts.archived, notArchived: counts.notArchived, records: named.n, payloadsHashed: hashed, recordsRead: read, replacedAndPruned,
      reviewLines: reviewed.reviewLines, reviewExchanges: reviewed.exchanges, auditRows: reviewed.auditRows, problems,
    };
  } catch (error) {
    // An SQLite failure mid-check (a damaged page of the index) is the index's, named by its file.
    throw asArchiveIndexError(options.archiveDir, error);
  } finally {
    index.close();
  }
}
