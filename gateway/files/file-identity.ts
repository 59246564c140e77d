/**
 * Which bytes a path names, cheaply: device, inode, size, mtime and ctime. Equal identities mean the same
 * file, unchanged (any write through the filesystem moves ctime); a rename over the path or a rewrite in
 * place gives another. The snapshot hot swap and the key store both notice a replaced file this way.
 */
import { statSync, type BigIntStats } from 'node:fs';

/** The identity of the file `path` resolves to now, or undefined when it cannot be read. */
export function fileIdentity(path: string): string | undefined {
  try {
    return identityOfStats(statSync(path, { bigint: true }));
  } catch {
    return undefined;
  }
}

/** The identity of an already-taken `stat` or `fstat` (bigint, for nanosecond times). */
export function identityOfStats(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** True when two identities name the same inode of the same device, whatever happened to its bytes. */
export function sameInode(a: string, b: string): boolean {
  const inode = (identity: string) => identity.split(':', 2).join(':');
  return inode(a) === inode(b);
}

/**
 * True when two identities of one inode differ at most in ctime: no byte could have been written (a write
 * moves mtime, a truncate or append the size), but a link could have been added or removed, which moves
 * ctime alone. Only meaningful with another sign that a link changed: a write followed by a `touch -d` back
 * to the old mtime looks the same.
 */
export function differsOnlyInCtime(a: string, b: string): boolean {
  const stamp = (identity: string) => identity.split(':').slice(0, 4).join(':');
  return stamp(a) === stamp(b);
}
