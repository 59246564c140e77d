/**
 * Opens the WARC file an index row names, treating the name as untrusted: it must be a relative path inside
 * the archive's `warc/` folder with no `.` or `..` segment, every folder on the way must resolve inside it,
 * and the file itself must be a regular file, never a symbolic link (O_NOFOLLOW).
 */
import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { NotRegularFileError, openRegularFile, type OpenRegularFile } from './open-regular-file.ts';
import { ARCHIVE_WARC_DIR, OPEN_WARC_SUFFIX } from './warc-archive-layout.ts';

/** The longest `file` value accepted: far past any name warcFilePath makes. */
const MAX_FILE_NAME_CHARS = 1024;

/** Why a `file` value is not a WARC file name inside the archive, or undefined when it is one. */
export function warcFileNameProblem(file: unknown): string | undefined {
  if (typeof file !== 'string' || file === '') return `${JSON.stringify(file)} is not a file name`;
  if (file.length > MAX_FILE_NAME_CHARS) return `a file name of ${file.length} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f]/.test(file)) return `${JSON.stringify(file)} holds a backslash or a control character`;
  const segments = file.split('/');
  if (segments[0] !== ARCHIVE_WARC_DIR || segments.length < 2) return `${JSON.stringify(file)} is not inside ${ARCHIVE_WARC_DIR}/`;
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return `${JSON.stringify(file)} has an empty, . or .. segment`;
  return undefined;
}

/**
 * Opens `file` (an index row's value) of the archive at `archiveDir`, or the same name with `.open` while its
 * writer still writes it; `fail` turns a problem into the caller's error, which names the record.
 */
export async function openArchiveWarcFile(archiveDir: string, file: unknown, fail: (problem: string) => Error): Promise<OpenRegularFile> {
  const problem = warcFileNameProblem(file);
  if (problem !== undefined) throw fail(`the index names ${problem}`);
  const path = join(archiveDir, file as string);
  let opened: OpenRegularFile;
  try {
    opened = await openRegularFile(path, { noFollow: true });
  } catch (error) {
    if (!(error instanceof NotRegularFileError)) throw error;
    // The writer indexes a file under its closed name while it is still being written.
    if (error.code !== 'ENOENT') throw fail(error.problem);
    try {
      opened = await openRegularFile(path + OPEN_WARC_SUFFIX, { noFollow: true });
    } catch (again) {
      if (!(again instanceof NotRegularFileError)) throw again;
      throw fail(again.code === 'ENOENT' ? 'file is missing' : `${(file as string) + OPEN_WARC_SUFFIX} ${again.problem}`);
    }
  }
  // O_NOFOLLOW covers the last component only: a folder on the way may be a link out of the archive.
  let inside: string;
  let real: string;
  try {
    inside = await realpath(join(archiveDir, ARCHIVE_WARC_DIR));
    real = await realpath(path).catch(() => realpath(path + OPEN_WARC_SUFFIX));
  } catch (error) {
    await opened.handle.close();
    throw fail(`cannot be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (!real.startsWith(inside + sep)) {
    await opened.handle.close();
    throw fail(`resolves to ${real}, outside the archive's ${ARCHIVE_WARC_DIR}/ folder`);
  }
  return opened;
}
