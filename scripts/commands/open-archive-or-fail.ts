/** Opens an evidence archive's responses for a command, an index it cannot read being one `hra:` line. */
import { ArchiveIndexError } from '../../build/archive/open-archive-index-for-reading.ts';
import { openArchivedResponses, type ArchivedResponses } from '../../build/archive/open-archived-responses.ts';
import { CliFailure } from '../cli-failure.ts';

/** The archive at `archiveDir`, read-only; a missing, foreign or damaged index is a CliFailure naming it. */
export function openArchiveOrFail(archiveDir: string): ArchivedResponses {
  try {
    return openArchivedResponses(archiveDir);
  } catch (error) {
    if (error instanceof ArchiveIndexError) throw new CliFailure(`--archive ${error.message}`);
    throw error;
  }
}
