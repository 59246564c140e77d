/** `hra validate`, `hra digest`, `hra build` and `hra verify`: the data maintainer's and auditor's commands. */
import type { Command } from 'commander';
import { computeRevision } from '../../build/revision/compute-revision.ts';
import { buildAndPublish } from '../../build/snapshot/publish-snapshot.ts';
import { verifySnapshot } from '../../build/snapshot/verify-snapshot.ts';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';

/** Registers the corpus and snapshot commands. */
export function registerCorpusCommands(program: Command): void {
  program
    .command('validate')
    .description('check every corpus file and cross-file rule; list every problem')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action((options: { corpus: string; json?: boolean }) => {
      const started = Date.now();
      const corpus = loadCorpusOrFail(options.corpus);
      let rows = 0;
      for (const ids of corpus.programIds.values()) rows += ids.size;
      const summary = { ok: true, cities: corpus.cities.length, rows, seconds: (Date.now() - started) / 1000 };
      if (options.json) printJson(summary);
      else process.stdout.write(`corpus is valid: ${summary.cities} cities, ${rows} program rows (${summary.seconds.toFixed(2)} s)\n`);
    });

  program
    .command('digest')
    .description('print the revision the corpus would build to, without building')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .option('--json', 'print the revision document as JSON')
    .action((options: { corpus: string; json?: boolean }) => {
      const { revision, document } = computeRevision(loadCorpusOrFail(options.corpus));
      if (options.json) printJson({ revision, document });
      else process.stdout.write(`${revision}\n`);
    });

  program
    .command('build')
    .description('compile the corpus into <out>/<revision>.sqlite and point <out>/current.sqlite at it')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .requiredOption('--out <dir>', 'output folder')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action((options: { corpus: string; out: string; json?: boolean }) => {
      const corpus = loadCorpusOrFail(options.corpus);
      const published = buildAndPublish(corpus, options.out, progress);
      if (options.json) printJson({ revision: published.revision, file: published.file, ...published.summary });
      else process.stdout.write(`${published.revision}\n`);
    });

  program
    .command('verify')
    .description('check that a snapshot is intact and that the corpus reproduces it byte for byte')
    .argument('<file>', 'snapshot file (.sqlite)')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .option('--json', 'print the check results as JSON')
    .action((file: string, options: { corpus: string; json?: boolean }) => {
      const corpus = loadCorpusOrFail(options.corpus);
      const results = verifySnapshot(file, corpus);
      if (options.json) printJson({ ok: results.every((result) => result.ok), checks: results });
      const failed = results.find((result) => !result.ok);
      if (failed && !failed.ok) throw new CliFailure(`verify failed: ${failed.check}: ${failed.reason}`);
      if (!options.json) process.stdout.write(`verified: ${results.map((result) => result.check).join(', ')}\n`);
    });

}
