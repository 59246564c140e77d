/** `hra changes detect`: appends the changes since a published snapshot to the corpus's change log. */
import type { Command } from 'commander';
import { isChangeTimestamp } from '../../build/changes/is-change-timestamp.ts';
import { recordDetectedChanges } from '../../build/changes/record-detected-changes.ts';
import { inspectSnapshot, openSnapshotFile } from '../../build/snapshot/inspect-snapshot.ts';
import { PREVIOUS_SNAPSHOT_FORMAT_VERSIONS } from '../../build/snapshot/snapshot-format.ts';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';

interface DetectFlags {
  readonly previous: string;
  readonly corpus: string;
  readonly at: string;
  readonly json?: boolean;
}

/** Registers `hra changes` and its `detect` subcommand on the root program. */
export function registerChangesCommand(program: Command): void {
  const changes = program.command('changes').description('maintain the corpus change log (changes.ndjson)');

  changes
    .command('detect')
    .description('append the changes between a published snapshot and the corpus to changes.ndjson; rerunning adds nothing')
    .requiredOption('--previous <file>', 'the last published snapshot (.sqlite)')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .requiredOption('--at <date-time>', 'detection time of the new events, ISO 8601 with a timezone')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action((flags: DetectFlags) => {
      if (!isChangeTimestamp(flags.at)) {
        throw new CliFailure(`--at ${JSON.stringify(flags.at)}: must be an ISO 8601 date-time with a timezone, such as 2026-11-16T06:00:00Z`);
      }
      const opened = openSnapshotFile(flags.previous);
      // openSnapshotFile only ever reports a failed check; the ternary just narrows the union.
      if ('error' in opened) throw new CliFailure(`--previous: ${opened.error.ok ? 'cannot open' : opened.error.reason}`);
      try {
        // The previous snapshot may predate the current format (the first detection after an upgrade).
        const failed = inspectSnapshot(opened.db, { deep: false, formatVersions: PREVIOUS_SNAPSHOT_FORMAT_VERSIONS }).find((result) => !result.ok);
        if (failed && !failed.ok) throw new CliFailure(`--previous ${flags.previous}: ${failed.reason}`);
        const corpus = loadCorpusOrFail(flags.corpus);
        const summary = recordDetectedChanges({ previous: opened.db, corpus, detectedAt: flags.at, onProgress: progress });
        const { added, firstId, lastId, byType } = summary;
        if (flags.json) printJson({ added, firstId, lastId, byType });
        else if (summary.added === 0) process.stdout.write('no changes\n');
        else process.stdout.write(`added ${summary.added} change events (ids ${summary.firstId}..${summary.lastId})\n`);
      } finally {
        opened.db.close();
      }
    });
}
