/** `hra prune`: removes old published snapshots from a build's output folder, never one in use. */
import { lstatSync, readdirSync, readlinkSync, realpathSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import type { PublishedFile } from '../../build/snapshot/plan-snapshot-prune.ts';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { plural } from '../plural.ts';
import { requireDirectory } from './require-path.ts';
import { loadModules } from '../module-load-failure.ts';

const SIDECARS = ['.sha256', '.segments'] as const;

interface PruneFlags {
  out: string;
  keep: string;
  dryRun?: boolean;
  json?: boolean;
}

/** Registers `hra prune`. */
export function registerPruneCommand(program: Command): void {
  program
    .command('prune')
    .description('remove old snapshots from a build output folder: keeps the newest --keep, what current.sqlite points to and any a process has open, each with its sidecars')
    .requiredOption('--out <dir>', 'the build output folder (hra build --out)')
    .requiredOption('--keep <n>', 'how many of the newest snapshots to keep (at least 1)')
    .option('--dry-run', 'print what would be removed, remove nothing')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action((flags: PruneFlags) => prune(flags));
}

async function prune(flags: PruneFlags): Promise<void> {
  const keep = Number(flags.keep);
  if (!/^\d+$/.test(flags.keep) || !Number.isSafeInteger(keep) || keep < 1) throw new CliFailure(`--keep ${JSON.stringify(flags.keep)}: must be a whole number of at least 1`);
  requireDirectory('--out', flags.out, 'build output folder');
  // Loaded when the command runs: every other command registers this one.
  const [{ findOpenFiles }, { planSnapshotPrune, SNAPSHOT_FILE }, { CURRENT_SNAPSHOT }, { sweepStaleBuildFiles }] = await loadModules(() => Promise.all([
    import('../../build/snapshot/find-open-files.ts'), import('../../build/snapshot/plan-snapshot-prune.ts'),
    import('../../build/snapshot/publish-snapshot.ts'), import('../../build/snapshot/sweep-stale-build-files.ts'),
  ]));
  // Without /proc nothing says which snapshots gateways hold open: removing one could pull a served file away.
  const open = findOpenFiles();
  if (open === undefined) throw new CliFailure('--out: cannot tell which snapshots are in use (no /proc to read open files); nothing was removed');
  const current = currentTarget(flags.out, CURRENT_SNAPSHOT);
  const files = listSnapshots(flags.out, SNAPSHOT_FILE);
  const isOpen = (name: string) => open.has(realpathSync(join(flags.out, name)));
  const plan = planSnapshotPrune(files, keep, current, isOpen);
  const removedBytes = plan.removed.reduce((sum, file) => sum + file.bytes, 0);
  for (const file of plan.removed) {
    if (!flags.dryRun) {
      // The snapshot first: a prune killed midway leaves sidecars without a snapshot, which nothing serves.
      rmSync(join(flags.out, file.name), { force: true });
      for (const sidecar of file.sidecars) rmSync(join(flags.out, sidecar), { force: true });
    }
    if (!flags.json) process.stdout.write(`${flags.dryRun ? 'would remove' : 'removed'} ${file.name}\n`);
  }
  const swept = flags.dryRun ? [] : sweepStaleBuildFiles(flags.out);
  for (const { file, because } of plan.kept) progress(`prune: kept ${file.name} (${because === 'newest' ? 'among the newest' : because === 'current' ? 'current.sqlite points to it' : 'a process has it open'})`);
  const summary = {
    ok: true, dryRun: flags.dryRun === true, kept: plan.kept.map(({ file, because }) => ({ file: file.name, because })),
    removed: plan.removed.map((file) => file.name), removedBytes, sweptTemporaryFiles: swept,
  };
  if (flags.json) printJson(summary);
  else process.stdout.write(`${flags.dryRun ? 'would remove' : 'removed'} ${plural(plan.removed.length, 'snapshot')} (${(removedBytes / 1048576).toFixed(1)} MiB), kept ${plan.kept.length}\n`);
}

/** The file name `current.sqlite` (`linkName`) points to, if it is a link to a snapshot in the folder. */
function currentTarget(out: string, linkName: string): string | undefined {
  const link = join(out, linkName);
  const stats = lstatSync(link, { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  // A copy rather than a link: whichever snapshot it duplicates is not known, and it is not removed here.
  if (!stats.isSymbolicLink()) return undefined;
  return basename(readlinkSync(link));
}

/** The snapshots in the folder (names matching `snapshotFile`), each with its sidecars. */
function listSnapshots(out: string, snapshotFile: RegExp): PublishedFile[] {
  const names = new Set(readdirSync(out));
  const files: PublishedFile[] = [];
  for (const name of names) {
    if (!snapshotFile.test(name)) continue;
    const stats = statSync(join(out, name));
    if (!stats.isFile()) continue;
    files.push({ name, sidecars: SIDECARS.map((suffix) => `${name}${suffix}`).filter((sidecar) => names.has(sidecar)), mtimeMs: stats.mtimeMs, bytes: stats.size });
  }
  return files;
}
