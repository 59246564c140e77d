/** `hra changes detect`: appends the changes since a published snapshot to the corpus's change log. */
import type { Command } from 'commander';
import type { ChangeEventRow } from '../../build/corpus/corpus-types.ts';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { plural } from '../plural.ts';
import { loadModules } from '../module-load-failure.ts';

interface DetectFlags {
  readonly previous: string;
  readonly corpus: string;
  readonly at: string;
  readonly allowBackdated?: boolean;
  readonly json?: boolean;
}

/** Registers `hra changes` and its `detect` subcommand on the root program; the snapshot and corpus modules load when it runs. */
export function registerChangesCommand(program: Command): void {
  const changes = program.command('changes').description('maintain the corpus change log (changes.ndjson)');

  changes
    .command('detect')
    .description('append the changes between a published snapshot and the corpus to changes.ndjson; rerunning adds nothing')
    .requiredOption('--previous <file>', 'the last published snapshot (.sqlite)')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .requiredOption('--at <date-time>', 'detection time of the new events, ISO 8601 with a timezone; not before the log\'s latest event')
    .option('--allow-backdated', 'accept an --at earlier than the change log\'s latest event')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action(async (flags: DetectFlags) => {
      const [{ isChangeTimestamp }, { recordDetectedChanges }, { inspectSnapshot, openSnapshotFile }, { PREVIOUS_SNAPSHOT_FORMAT_VERSIONS }, { loadCorpusOrFail }, { requireBuildSources }] = await loadModules(() => Promise.all([
        import('../../build/changes/is-change-timestamp.ts'), import('../../build/changes/record-detected-changes.ts'), import('../../build/snapshot/inspect-snapshot.ts'),
        import('../../build/snapshot/snapshot-format.ts'), import('./load-corpus-or-fail.ts'), import('./require-build-sources.ts'),
      ]));
      if (!isChangeTimestamp(flags.at)) {
        throw new CliFailure(`--at ${JSON.stringify(flags.at)}: must be an ISO 8601 date-time with a timezone, such as 2026-11-16T06:00:00Z`);
      }
      requireBuildSources();
      const opened = openSnapshotFile(flags.previous);
      // openSnapshotFile only ever reports a failed check; the ternary just narrows the union.
      if ('error' in opened) throw new CliFailure(`--previous: ${opened.error.ok ? 'cannot open' : opened.error.reason}`);
      try {
        // The previous snapshot may predate the current format (the first detection after an upgrade).
        const failed = inspectSnapshot(opened.db, { deep: false, formatVersions: PREVIOUS_SNAPSHOT_FORMAT_VERSIONS }).find((result) => !result.ok);
        if (failed && !failed.ok) throw new CliFailure(`--previous ${flags.previous}: ${failed.reason}`);
        const corpus = loadCorpusOrFail(flags.corpus);
        if (flags.allowBackdated !== true) refuseBackdated(flags.at, corpus.changes);
        const summary = recordDetectedChanges({ previous: opened.db, corpus, detectedAt: flags.at, onProgress: progress });
        const { detected, added, firstId, lastId, byType } = summary;
        if (added > 0) progress(`changes: the corpus now differs from every published snapshot: build and publish it (hra build --corpus ${flags.corpus} --out <dir>)`);
        if (flags.json) printJson({ ok: true, added, firstId, lastId, byType });
        else if (detected === 0) process.stdout.write('no changes\n');
        else if (added === 0) process.stdout.write(`no new changes: the ${plural(detected, 'change')} since the previous snapshot ${detected === 1 ? 'is' : 'are'} already in the change log\n`);
        else process.stdout.write(`added ${plural(added, 'change event')} (${added === 1 ? `id ${firstId}` : `ids ${firstId}..${lastId}`})\n`);
      } finally {
        opened.db.close();
      }
    });
}

/**
 * Event ids and detection times both increase along the change log (consumers read the feed by id and
 * expect time to follow): an --at before the latest logged event is refused unless explicitly allowed.
 */
function refuseBackdated(at: string, log: readonly ChangeEventRow[]): void {
  const time = (event: ChangeEventRow) => Date.parse(event.detectedAt);
  // The latest time; among events at that time, the highest id (the one an operator would look for).
  const latest = log.reduce<ChangeEventRow | undefined>((last, event) => (last === undefined || time(event) > time(last) || (time(event) === time(last) && event.id > last.id) ? event : last), undefined);
  if (latest !== undefined && Date.parse(at) < Date.parse(latest.detectedAt)) {
    throw new CliFailure(`--at ${at} is earlier than the change log's latest event (id ${latest.id}, detected ${latest.detectedAt}); event times must not go back: give a later --at, or --allow-backdated`);
  }
}
