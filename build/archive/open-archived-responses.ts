/**
 * The archive as a replay reads it: record ids to archived responses, through the index and the checked
 * reader (read-archived-record.ts), in the shape the re-derivation takes.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openArchiveIndex } from './archive-index.ts';
import type { ArchivedResponse } from './archived-response.ts';
import { ArchiveRecordError, readArchivedRecord } from './read-archived-record.ts';
import { ARCHIVE_INDEX_FILE } from './warc-archive-layout.ts';

/** An archive open for reading responses. */
export interface ArchivedResponses {
  /** The response a record id names, its payload checked against its digest; throws ArchiveRecordError. */
  read(recordId: string): Promise<ArchivedResponse>;
  close(): void;
}

/** An archive folder without its index: nothing in it can be found by record id. */
export class ArchiveMissingError extends Error {}

/**
 * True for the reader's error about a payload that no longer hashes to its digest (the bytes changed),
 * as against a record that cannot be read at all. The reader says which only in its message.
 */
export function isDigestFailure(error: unknown): error is ArchiveRecordError {
  return error instanceof ArchiveRecordError && /does not match its digest/.test(error.message);
}

/** Opens the archive at `archiveDir` read-only; throws ArchiveMissingError when it has no index. */
export function openArchivedResponses(archiveDir: string): ArchivedResponses {
  if (!existsSync(join(archiveDir, ARCHIVE_INDEX_FILE))) throw new ArchiveMissingError(`${join(archiveDir, ARCHIVE_INDEX_FILE)}: no archive index (not an evidence archive, or none was written yet)`);
  const index = openArchiveIndex(archiveDir, { readonly: true });
  return {
    async read(recordId) {
      const record = await readArchivedRecord(archiveDir, index, recordId);
      if (record.row.type !== 'response' && record.row.type !== 'revisit') {
        throw new ArchiveRecordError(record.row.file, recordId, `is a ${record.row.type} record, not a response`);
      }
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of record.httpHeaders) {
        const key = name.toLowerCase();
        const before = headers[key];
        // Repeated fields as undici delivers them: an array, in order.
        headers[key] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
      }
      return {
        file: record.row.file,
        recordId,
        targetUri: record.targetUri,
        status: record.httpStatus ?? 0,
        headers,
        payload: record.payload,
        ...(record.truncated === undefined ? {} : { truncated: record.truncated }),
      };
    },
    close: () => index.close(),
  };
}
