/**
 * A child process that holds an archive's lock (argv: archive folder, mode, purpose, and optionally a number of ms
 * after which it lets go) until its stdin closes, that time has passed or it is killed, printing `held` once it does: the other process the lock tests need, since the kernel's lock is per process.
 */
import { acquireArchiveLock, type ArchiveLockMode } from '../../build/archive/archive-lock.ts';

const [archiveDir, mode, purpose, holdMs] = process.argv.slice(2);
const release = acquireArchiveLock(archiveDir!, { mode: mode as ArchiveLockMode, purpose: purpose!, waitMs: 0 });
process.stdout.write('held\n');
process.stdin.resume();
const end = (): void => {
  release();
  process.exit(0);
};
process.stdin.on('end', end);
if (holdMs !== undefined) setTimeout(end, Number(holdMs));
