/**
 * Opens a file for reading only when it is a regular file, without ever blocking: a FIFO would block a plain
 * open until a writer comes, and a device or directory never ends as a file does.
 */
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** A regular file open for reading, and its size when opened. */
export interface OpenRegularFile {
  readonly handle: FileHandle;
  readonly size: number;
}

/** Options for openRegularFile. */
export interface OpenRegularFileOptions {
  /** Refuse a symbolic link as the last component (O_NOFOLLOW). */
  readonly noFollow?: boolean;
}

/** A file that is not there or not a regular file; `problem` says which, in words, with no path. */
export class NotRegularFileError extends Error {
  readonly problem: string;
  readonly code: string | undefined;
  constructor(problem: string, code?: string) {
    super(problem);
    this.name = 'NotRegularFileError';
    this.problem = problem;
    this.code = code;
  }
}

/** Opens `path` read-only (see the file head); throws NotRegularFileError for anything else there. */
export async function openRegularFile(path: string, options: OpenRegularFileOptions = {}): Promise<OpenRegularFile> {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0);
  let handle: FileHandle;
  try {
    handle = await open(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new NotRegularFileError('file is missing', code);
    if (code === 'ELOOP') throw new NotRegularFileError('is a symbolic link, not a regular file', code);
    throw new NotRegularFileError(`cannot be opened (${code ?? (error as Error).message})`, code);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(`is ${kindOf(stats)}, not a regular file`);
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}
