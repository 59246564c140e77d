/**
 * Says which process holds a lock on a file (SQLite's POSIX locks on a database, its -wal or -shm), read
 * from /proc/locks, so a reader that gave up waiting can name who to wait for. Linux only; elsewhere, or when
 * the holder is not visible, it says so.
 */
import { readFileSync, statSync } from 'node:fs';

/** `held by process <pid> (<command line>)`, or a sentence saying the holder could not be named. */
export function describeLockHolder(files: readonly string[]): string {
  let locks: string;
  try {
    locks = readFileSync('/proc/locks', 'utf8');
  } catch {
    return 'held by another process (this system does not say which)';
  }
  for (const file of files) {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (stats === undefined) continue;
    // /proc/locks names a file as major:minor:inode; an overlay file system may show other device numbers
    // than stat does, so the inode alone is matched.
    const suffix = `:${stats.ino}`;
    for (const line of locks.split('\n')) {
      const fields = line.trim().split(/\s+/);
      const at = fields.findIndex((field) => /^[0-9a-f]+:[0-9a-f]+:\d+$/.test(field) && field.endsWith(suffix));
      if (at < 1) continue;
      const pid = Number(fields[at - 1]);
      if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) continue;
      return `held by process ${pid}${commandOf(pid)}`;
    }
  }
  return 'held by another process (not one this user can see)';
}

function commandOf(pid: number): string {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return command === '' ? '' : ` (${command.length > 120 ? `${command.slice(0, 117)}...` : command})`;
  } catch {
    return '';
  }
}
