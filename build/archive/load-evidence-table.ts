/**
 * Loads a corpus's evidence references into a TEMP table of an open SQLite connection, so that the archive
 * checks (verify, prune) join them with the archive's index in SQL: memory stays at SQLite's page cache
 * whatever the number of lines, since SQLite keeps temporary tables in a file.
 */
import type { Database } from 'better-sqlite3';
import { encodedRecordId } from './archive-index.ts';
import { readEvidenceReferences } from './read-evidence-references.ts';

/** Counts of the lines loaded. */
export interface EvidenceTableCounts {
  /** Lines read from both evidence files. */
  readonly lines: number;
  /** Lines that name a record (`warcRecordId` and `payloadSha256`). */
  readonly archived: number;
  /** Lines without them: "not archived", never a failure. */
  readonly notArchived: number;
}

/** The table of index.sqlite that holds one row per record (its schema: archive-index.ts). */
export const INDEX_RECORDS_TABLE = 'records';

/** The TEMP table loadEvidenceTable fills: one row per evidence line that names a record. */
export const EVIDENCE_TABLE = 'temp.evidence';

const BATCH = 5000;

/**
 * Fills `temp.evidence(file, line, subject, checked_at, seq, decides, record_id, payload_sha256, replaced,
 * bound_field, bound_uri, via_redirects)` (the last three: the URL its record must be of, evidence-record-binding.ts):
 * `replaced` is 1 when a later line of the same subject that decides names a record the index 
 * holds: the rule under which `hra archive prune` may drop this line's record once it is past the window.
 */
export async function loadEvidenceTable(db: Database, corpusDir: string): Promise<EvidenceTableCounts> {
  db.exec(`DROP TABLE IF EXISTS ${EVIDENCE_TABLE};
    CREATE TEMP TABLE evidence (file TEXT NOT NULL, line INTEGER NOT NULL, subject TEXT NOT NULL, checked_at TEXT NOT NULL,
      seq INTEGER NOT NULL, decides INTEGER NOT NULL, record_id TEXT NOT NULL, payload_sha256 TEXT NOT NULL, replaced INTEGER NOT NULL DEFAULT 0,
      bound_field TEXT NOT NULL, bound_uri TEXT, via_redirects INTEGER NOT NULL)`);
  const insert = db.prepare(`INSERT INTO temp.evidence (file, line, subject, checked_at, seq, decides, record_id, payload_sha256, bound_field, bound_uri, via_redirects)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertBatch = db.transaction((rows: unknown[][]) => {
    for (const row of rows) insert.run(...row);
  });
  let lines = 0;
  let archived = 0;
  let batch: unknown[][] = [];
  for await (const reference of readEvidenceReferences(corpusDir)) {
    lines += 1;
    if (reference.recordId === undefined || reference.payloadSha256 === undefined) continue;
    archived += 1;
    // seq orders lines of one file: on the same date the later line wins, as every derivation reads them.
    batch.push([reference.file, reference.line, reference.subject, reference.checkedAt, lines, reference.decides ? 1 : 0, reference.recordId, reference.payloadSha256,
      reference.binding.field, reference.binding.uri, reference.binding.viaRedirects ? 1 : 0]);
    if (batch.length >= BATCH) {
      insertBatch(batch);
      batch = [];
    }
  }
  insertBatch(batch);
  db.exec(`CREATE INDEX temp.evidence_subject ON evidence (subject, checked_at, seq);
    CREATE INDEX temp.evidence_record ON evidence (record_id);
    UPDATE temp.evidence AS earlier SET replaced = 1 WHERE EXISTS (
      SELECT 1 FROM temp.evidence AS later WHERE later.subject = earlier.subject AND later.decides = 1
        AND (later.checked_at > earlier.checked_at OR (later.checked_at = earlier.checked_at AND later.seq > earlier.seq))
        AND EXISTS (SELECT 1 FROM ${INDEX_RECORDS_TABLE} AS indexed WHERE indexed.record_key = ${encodedRecordId('later.record_id')}))`);
  return { lines, archived, notArchived: lines - archived };
}
