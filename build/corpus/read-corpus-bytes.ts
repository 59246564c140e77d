/**
 * Reads one corpus file's bytes as untrusted input (STYLE 32): it must be a regular file, after `lstat` and
 * again on the descriptor read from, and lie inside the corpus once every symbolic link on its path is
 * resolved. A FIFO (which would block the read for ever), a device (/dev/zero never ends), a directory, or a
 * link leading out of the corpus (to /etc/passwd) is a problem naming the file, and none of its bytes is read.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import { relative, isAbsolute } from 'node:path';
import type { CorpusProblem } from './corpus-problem.ts';

/** The bytes of the corpus file at `absolutePath` under the corpus folder `root`, or undefined with a problem on `file`. */
export function readCorpusBytes(absolutePath: string, root: string, file: string, problems: CorpusProblem[]): Buffer | undefined {
  const opened = openCorpusFile(absolutePath, root);
  if (typeof opened === 'string') {
    problems.push({ file, line: 0, path: '$', message: opened });
    return undefined;
  }
  try {
    return readFileSync(opened);
  } catch (error) {
    problems.push({ file, line: 0, path: '$', message: cannotRead(error) });
    return undefined;
  } finally {
    closeSync(opened);
  }
}

/**
 * Opens the corpus file at `absolutePath` under `root` for reading once it has passed the checks of the file
 * head: its descriptor (the caller closes it), or why it is refused, as a problem's message.
 */
export function openCorpusFile(absolutePath: string, root: string): number | string {
  let real: string;
  try {
    const link = lstatSync(absolutePath);
    if (!link.isSymbolicLink() && !link.isFile()) return `not a regular file (${kindOf(link)})`;
    real = realpathSync(absolutePath);
    if (!inside(real, realpathSync(root))) return `${link.isSymbolicLink() ? 'a symbolic link' : 'reached through a symbolic link'} to ${real}, outside the corpus folder`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && isDanglingLink(absolutePath)) return 'a symbolic link to a file that does not exist';
    return cannotRead(error);
  }
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO put in the file's place since the lstat must not block the open; O_NOFOLLOW: nor a link.
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return cannotRead(error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) return fd;
    closeSync(fd);
    return `not a regular file (${kindOf(stat)})`;
  } catch (error) {
    closeSync(fd);
    return cannotRead(error);
  }
}

function cannotRead(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'file is missing' : `cannot be read (${code ?? (error as Error).message})`;
}

function inside(path: string, root: string): boolean {
  const rest = relative(root, path);
  return rest !== '' && !rest.startsWith('..') && !isAbsolute(rest);
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'a symbolic link';
}
