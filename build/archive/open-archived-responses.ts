/**
 * The archive as a replay reads it: record ids to archived responses, through the index and the checked
 * reader (read-archived-record.ts), in the shape the re-derivation takes.
 */
import { archivedRedirectsReach } from './follow-archived-redirects.ts';
import { asArchiveIndexError, openArchiveIndexForReading } from './open-archive-index-for-reading.ts';
import type { ArchivedResponse } from './archived-response.ts';
import { ArchiveRecordError, readArchivedRecord } from './read-archived-record.ts';

/** An archive open for reading responses. */
export interface ArchivedResponses {
  /** The response a record id names, its payload checked against its digest; throws ArchiveRecordError. */
  read(recordId: string): Promise<ArchivedResponse>;
  /** Whether the index has a row for the record id (a pruned record has none). */
  isIndexed(recordId: string): boolean;
  /** Whether the archive's redirect hops lead from `fromUrl` to `toUri`, dated no later than `notAfter`. */
  redirectsReach(fromUrl: string, toUri: string, notAfter: string): Promise<boolean>;
  close(): void;
}

/**
 * True for the reader's error about a payload that no longer hashes to its digest (the bytes changed),
 * as against a record that cannot be read at all. The reader says which only in its message.
 */
export function isDigestFailure(error: unknown): error is ArchiveRecordError {
  return error instanceof ArchiveRecordError && /does not match its digest/.test(error.message);
}

/** Opens the archive at `archiveDir` read-only; throws ArchiveIndexError when its index cannot be read. */
export function openArchivedResponses(archiveDir: string): ArchivedResponses {
  const index = openArchiveIndexForReading(archiveDir);
  return {
    async read(recordId) {
      const record = await readArchivedRecord(archiveDir, index, recordId).catch((error: unknown) => {
        throw asArchiveIndexError(archiveDir, error);
      });
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
        warcDate: record.row.warcDate,
        status: record.httpStatus ?? 0,
        headers,
        payload: record.payload,
        ...(record.truncated === undefined ? {} : { truncated: record.truncated }),
      };
    },
    isIndexed(recordId) {
      try {
        return index.byRecordId(recordId) !== undefined;
      } catch (error) {
        throw asArchiveIndexError(archiveDir, error);
      }
    },
    redirectsReach: (fromUrl, toUri, notAfter) => archivedRedirectsReach(archiveDir, index, fromUrl, toUri, notAfter).catch((error: unknown) => {
      throw asArchiveIndexError(archiveDir, error);
    }),
    close: () => index.close(),
  };
}
