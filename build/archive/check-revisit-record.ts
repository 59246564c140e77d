/**
 * Checks a revisit record's own gzip member as the index places it (its id, type, target URI, the response it
 * repeats and the digest it carries) without reading that response again: verify hashes each response once,
 * however many weekly revisits repeat it.
 */
import type { ArchiveIndexRow } from './archive-index.ts';
import { ArchiveRecordError, readIndexedMember } from './read-archived-record.ts';

/** Rejects with an ArchiveRecordError naming file and record when the revisit's member is not what the index says. */
export async function checkRevisitRecord(archiveDir: string, row: ArchiveIndexRow): Promise<void> {
  if (row.type !== 'revisit') throw new ArchiveRecordError(row.file, row.recordId, `indexed as ${row.type}, not a revisit`);
  await readIndexedMember(archiveDir, row);
}
