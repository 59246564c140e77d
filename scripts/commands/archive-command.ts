/** `hra archive prune` and `hra archive reindex`: retention and repair of the evidence archive that `hra links check` writes. */
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { plural } from '../plural.ts';
import { requireArchive } from './require-archive.ts';
import { requireDirectory } from './require-path.ts';
import { loadModules } from '../module-load-failure.ts';

interface ArchivePruneFlags {
  archive: string;
  keepWeeks: string;
  corpus?: string;
  dryRun?: boolean;
  json?: boolean;
}

interface ArchiveReindexFlags {
  archive: string;
  json?: boolean;
}

/** Registers `hra archive` and its subcommands. */
export function registerArchiveCommand(program: Command): void {
  const archive = program.command('archive').description('look after the evidence archive that hra links check writes (WARC files and index.sqlite)');
  archive
    .command('prune')
    .description('remove archived records older than --keep-weeks, never one the corpus\'s evidence still rests on (nor the response a kept revisit repeats, nor a kept record\'s request)')
    .requiredOption('--archive <dir>', 'the archive folder (hra links check --archive)')
    .requiredOption('--keep-weeks <n>', 'keep every record written within this many weeks (a whole number, 0 or more)')
    .option('--corpus <dir>', 'corpus folder whose evidence lines decide what is kept (default: corpus beside --archive)')
    .option('--dry-run', 'print what would be removed, remove nothing')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action((flags: ArchivePruneFlags) => prune(flags));
  archive
    .command('reindex')
    .description('rebuild index.sqlite from the WARC files alone (the same rows the writer indexed); seals what killed writers left first, and refuses while a links check is writing')
    .requiredOption('--archive <dir>', 'the archive folder (hra links check --archive); its index.sqlite may be missing')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action((flags: ArchiveReindexFlags) => reindex(flags));
}

async function reindex(flags: ArchiveReindexFlags): Promise<void> {
  // Unlike the readers, a reindex needs no index: rebuilding a lost one is what it is for.
  requireDirectory('--archive', flags.archive, 'WARC archive folder');
  const [{ reindexArchive, ReindexError }, { ArchiveLockedError }] = await loadModules(() => Promise.all([import('../../build/archive/reindex-archive.ts'), import('../../build/archive/archive-lock.ts')]));
  const summary = await reindexArchive({ archiveDir: flags.archive, progress }).catch((error: unknown) => {
    if (error instanceof ReindexError || error instanceof ArchiveLockedError) throw new CliFailure(error.message);
    throw error;
  });
  if (summary.recovered) progress(`archive reindex: ${summary.recovered}`);
  for (const sealed of summary.sealed) progress(`archive reindex: sealed ${sealed.file}${sealed.removed ? ' (nothing in it was indexed: removed)' : sealed.cutBytes > 0 ? ` (cut ${sealed.cutBytes} torn bytes)` : ''}`);
  const { comparison } = summary;
  if (comparison !== undefined) {
    for (const id of comparison.missing) progress(`archive reindex: record ${id} was in the old index, and no file holds it`);
    for (const id of comparison.changed) progress(`archive reindex: record ${id} is indexed otherwise than before`);
  }
  if (flags.json) {
    printJson({ ok: true, files: summary.files, records: summary.rows, recovered: summary.recovered ?? null, sealed: summary.sealed, previous: comparison ?? null });
    return;
  }
  const against = comparison === undefined
    ? 'there was no index to compare with'
    : comparison.missingCount === 0 && comparison.changedCount === 0
      ? `the same rows as the index it replaced`
      : `the index it replaced had ${comparison.previousRows} rows: ${comparison.missingCount} no file holds, ${comparison.changedCount} indexed otherwise now (listed above)`;
  process.stdout.write(`reindexed ${plural(summary.rows, 'record')} from ${plural(summary.files, 'WARC file')}: ${against}\n`);
}

async function prune(flags: ArchivePruneFlags): Promise<void> {
  if (!/^\d+$/.test(flags.keepWeeks) || !Number.isSafeInteger(Number(flags.keepWeeks))) throw new CliFailure(`--keep-weeks ${JSON.stringify(flags.keepWeeks)}: must be a whole number of weeks, 0 or more`);
  requireArchive(flags.archive);
  const corpus = flags.corpus ?? join(dirname(flags.archive.replace(/[\\/]+$/, '') || '.'), 'corpus');
  requireDirectory(flags.corpus === undefined ? '--corpus (default: beside --archive)' : '--corpus', corpus, 'corpus folder');
  const [{ pruneArchive }, { ArchiveLockedError }, { EvidenceLineError }] = await loadModules(() => Promise.all([
    import('../../build/archive/prune-archive.ts'), import('../../build/archive/archive-lock.ts'), import('../../build/archive/read-evidence-references.ts'),
  ]));
  const dryRun = flags.dryRun === true;
  const summary = await pruneArchive({ archiveDir: flags.archive, corpusDir: corpus, keepWeeks: Number(flags.keepWeeks), now: new Date(), dryRun, progress })
    .catch((error: unknown) => {
      if (error instanceof ArchiveLockedError || error instanceof EvidenceLineError) throw new CliFailure(error.message);
      throw error;
    });
  const { plan } = summary;
  if (summary.recovered) progress(`archive prune: ${summary.recovered}`);
  for (const sealed of summary.sealed) progress(`archive prune: sealed ${sealed.file}${sealed.removed ? ' (nothing in it was indexed: removed)' : sealed.cutBytes > 0 ? ` (cut ${sealed.cutBytes} torn bytes)` : ''}`);
  const keptRecords = Object.values(plan.kept).reduce((sum, n) => sum + n, 0);
  if (flags.json) {
    printJson({
      ok: true, dryRun, cutoff: summary.cutoff, corpus, recovered: summary.recovered ?? null,
      sealed: summary.sealed, openFilesOfFinishedWriters: summary.openFilesOfFinishedWriters,
      evidence: plan.evidence, keptRecords, keptBecause: plan.kept, removedRecords: plan.expiredRecords,
      files: summary.files, bytesFreed: summary.bytesFreed,
    });
    return;
  }
  for (const file of summary.files) {
    if ('dryRun' in file) process.stdout.write(`would ${file.action} ${file.file} (${plural(file.expiredRecords, 'record')} past the window, ${file.keptRecords} kept)\n`);
    else if (file.action === 'skipped') progress(`archive prune: left ${file.file} as it was: ${file.reason}`);
    else process.stdout.write(file.action === 'removed' ? `removed ${file.file}\n` : `rewrote ${file.file} as ${file.replacement}\n`);
  }
  if (dryRun && summary.openFilesOfFinishedWriters > 0) process.stdout.write(`would seal ${plural(summary.openFilesOfFinishedWriters, '.open file')} of writers no longer running\n`);
  const removed = summary.files.filter((file) => !('action' in file && file.action === 'skipped'));
  process.stdout.write(`${dryRun ? 'would remove' : 'removed'} ${plural(plan.expiredRecords, 'record')} written before ${summary.cutoff} from ${plural(removed.length, 'file')} ` +
    `(${(summary.bytesFreed / 1048576).toFixed(1)} MiB); kept ${keptRecords}: ${plan.kept.window} within the window, ${plan.kept.bound} named by evidence, ` +
    (plan.kept.redirect > 0 ? `${plan.kept.redirect} redirect hops to records kept, ` : '') +
    `${plan.kept.repeated} repeated by a kept revisit, ${plan.kept.request} requests of kept records\n`);
}
