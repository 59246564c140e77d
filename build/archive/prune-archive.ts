/**
 * `hra archive prune`: seals what killed writers left, finishes or undoes a killed prune's step, plans what
 * the window and the corpus's evidence keep (plan-archive-prune.ts) and removes or rewrites each file with
 * expired records (apply-archive-prune.ts). It holds the archive's lock exclusively for the whole run
 * (archive-lock.ts), so no writer and no other prune runs beside it: every `.open` file and every journal it
 * finds was left by a process that is gone.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { acquireArchiveLock } from './archive-lock.ts';
import { INDEX_ROWS_TABLE, openArchiveIndex } from './archive-index.ts';
import { applyFilePrune, PRUNE_JOURNAL, recoverInterruptedPrune, type AppliedFilePrune } from './apply-archive-prune.ts';
import { archivedRedirectChain } from './follow-archived-redirects.ts';
import { planArchivePrune, type ArchivePrunePlan, type FilePrunePlan } from './plan-archive-prune.ts';
import { sealTornTails, type SealedFile } from './seal-torn-tails.ts';
import { OPEN_WARC_SUFFIX, warcFilePath } from './warc-archive-layout.ts';

/** What pruneArchive needs; `now` is the run's time, from which the window counts back. */
export interface PruneArchiveOptions {
  readonly archiveDir: string;
  readonly corpusDir: string;
  readonly keepWeeks: number;
  readonly now: Date;
  readonly dryRun: boolean;
  readonly pid?: number;
  /** How long to wait for the archive's lock before refusing (default 2 s). */
  readonly lockWaitMs?: number;
  readonly progress?: (message: string) => void;
}

/** What a prune did (or, with `dryRun`, would do). */
export interface PruneArchiveSummary {
  /** Records written before this ISO time are past the window. */
  readonly cutoff: string;
  readonly dryRun: boolean;
  /** What was done about a killed prune's journal, if there was one. */
  readonly recovered: string | undefined;
  /** `.open` files of finished writers sealed (none with `dryRun`). */
  readonly sealed: readonly SealedFile[];
  /** `.open` files of finished writers found: with `dryRun`, those a prune would seal. */
  readonly openFilesOfFinishedWriters: number;
  readonly plan: ArchivePrunePlan;
  /** One entry per file with expired records; with `dryRun`, what would happen to it. */
  readonly files: ReadonlyArray<AppliedFilePrune | (FilePrunePlan & { readonly dryRun: true })>;
  readonly bytesFreed: number;
}

/** How long a prune waits for the archive's lock by default: a short wait, not a prune's length. */
export const PRUNE_LOCK_WAIT_MS = 2000;

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Runs a prune (see the file head); the archive folder and its index must exist. */
export async function pruneArchive(options: PruneArchiveOptions): Promise<PruneArchiveSummary> {
  const { archiveDir, dryRun } = options;
  const pid = options.pid ?? process.pid;
  // A dry run takes it too: its plan would be stale beside a prune or a writer.
  const release = acquireArchiveLock(archiveDir, { purpose: dryRun ? 'archive prune --dry-run' : 'archive prune', mode: 'exclusive', waitMs: options.lockWaitMs ?? PRUNE_LOCK_WAIT_MS });
  let index: ReturnType<typeof openArchiveIndex> | undefined;
  try {
    const opened = openArchiveIndex(archiveDir);
    index = opened;
    const db = opened.database;
    let finished = 0;
    // The lock says no writer runs. With dryRun every file reads as still written, so nothing is sealed; they are counted.
    const sealed = sealTornTails(archiveDir, index, {
      isProcessAlive: () => {
        finished += 1;
        return dryRun;
      },
    });
    const recovered = dryRun ? (existsSync(join(archiveDir, PRUNE_JOURNAL)) ? `would finish or undo the step in ${PRUNE_JOURNAL}` : undefined) : recoverInterruptedPrune(archiveDir, db);
    const cutoff = new Date(options.now.getTime() - options.keepWeeks * WEEK_MS).toISOString();
    const plan = await planArchivePrune(db, options.corpusDir, cutoff, (from, to, notAfter) => archivedRedirectChain(archiveDir, opened, from, to, notAfter));
    let sequence = 0;
    const replacementName = (old: string): string => {
      for (;;) {
        const name = `${dirname(old)}/${basename(warcFilePath(options.now, pid, ++sequence))}`;
        if (!existsSync(join(archiveDir, name)) && !existsSync(join(archiveDir, name + OPEN_WARC_SUFFIX))) return name;
      }
    };
    // Each file's transaction looks for revisits of its expired records written since the plan: without an
    // index on refers_to that is a scan of every row per file. (Derivable like the rest of the index.)
    if (!dryRun && plan.files.length > 0) db.exec(`CREATE INDEX IF NOT EXISTS records_refers_to ON ${INDEX_ROWS_TABLE} (refers_to)`);
    const files: PruneArchiveSummary['files'][number][] = [];
    let bytesFreed = 0;
    for (const file of plan.files) {
      if (dryRun) {
        files.push({ ...file, dryRun: true });
        bytesFreed += file.expiredBytes;
        continue;
      }
      const applied = applyFilePrune(file, { archiveDir, db, replacementName });
      options.progress?.(`archive prune: ${applied.action} ${applied.file}${applied.replacement ? ` as ${applied.replacement}` : ''}${applied.reason ? ` (${applied.reason})` : ''}`);
      files.push(applied);
      bytesFreed += applied.bytesFreed;
    }
    // So that index.sqlite alone is whole, to copy beside the synced files (docs/operators.md).
    if (!dryRun) db.pragma('wal_checkpoint(TRUNCATE)');
    return { cutoff, dryRun, recovered, sealed, openFilesOfFinishedWriters: finished, plan, files, bytesFreed };
  } finally {
    index?.close();
    release();
  }
}
