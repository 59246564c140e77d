/**
 * The temporary files a build writes into its output directory, and their removal when the build that
 * wrote them was killed (SIGKILL, a power cut) before its own cleanup could run. Each name carries the
 * writer's pid, so a later build can tell an abandoned file from one a concurrent build is still writing.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `.building-<pid>-<ms>.sqlite` (plus SQLite's `-journal` and the side files' suffixes), `.current-<pid>-<ms>.sqlite`
 * links, and `.probe-<pid>-<ms>.sqlite`, the file a build creates to learn that it may write the folder.
 */
const TEMPORARY = /^\.(?:building|current|probe)-(\d+)-\d+\.sqlite/;

/**
 * A fresh temporary path in `outDir` for this process: `kind` `building` for a snapshot, `current` for the
 * link swap, `probe` for the writability check before any work (named apart, so it is never taken for a
 * snapshot being written).
 */
export function buildTemporaryPath(outDir: string, kind: 'building' | 'current' | 'probe'): string {
  return join(outDir, `.${kind}-${process.pid}-${Date.now()}.sqlite`);
}

/** Removes the temporary files in `outDir` whose writing process no longer exists; returns their names. */
export function sweepStaleBuildFiles(outDir: string, isRunning: (pid: number) => boolean = isProcessRunning): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(outDir)) {
    const pid = Number(TEMPORARY.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    rmSync(join(outDir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
