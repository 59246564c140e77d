/**
 * The files some process on this machine holds open, read from Linux's /proc: what tells `hra prune` which
 * snapshots a gateway still serves, whatever path it was started with.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The absolute paths open in any process we may inspect (every process, for root), or undefined where there
 * is no /proc to read: then nobody can say which files are in use.
 */
export function findOpenFiles(proc = '/proc'): Set<string> | undefined {
  let pids: string[];
  try {
    // Our own descriptors must be readable, or /proc is not the Linux one.
    readdirSync(join(proc, 'self/fd'));
    pids = readdirSync(proc).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const open = new Set<string>();
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(join(proc, pid, 'fd'));
    } catch {
      continue; // gone since the listing, or another user's process
    }
    for (const fd of fds) {
      try {
        open.add(readlinkSync(join(proc, pid, 'fd', fd)));
      } catch {
        // closed since the listing
      }
    }
  }
  return open;
}
