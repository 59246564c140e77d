/**
 * `hra validate`, `hra digest`, `hra build` and `hra verify`: the data maintainer's and auditor's commands.
 * Their actions (corpus-command-actions.ts) load when one runs: every other command registers these too.
 */
import type { Command } from 'commander';
import { loadModules } from '../module-load-failure.ts';

/** The commands registerCorpusCommands registers, which need no other command's modules (scripts/hra.ts). */
export const CORPUS_COMMANDS = ['validate', 'digest', 'build', 'verify'] as const;

/** Registers the corpus and snapshot commands. */
export function registerCorpusCommands(program: Command): void {
  const [validate, digest, build, verify] = CORPUS_COMMANDS;
  program
    .command(validate)
    .description('check every corpus file and cross-file rule; list every problem')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action(async (options: { corpus: string; json?: boolean }) => (await loadModules(() => import('./corpus-command-actions.ts'))).runValidate(options));

  program
    .command(digest)
    .description('print the revision the corpus would build to, without building')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .option('--json', 'print the revision document as JSON')
    .action(async (options: { corpus: string; json?: boolean }) => (await loadModules(() => import('./corpus-command-actions.ts'))).runDigest(options));

  program
    .command(build)
    .description('compile the corpus into <out>/<revision>.sqlite and point <out>/current.sqlite at it')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .requiredOption('--out <dir>', 'output folder')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action(async (options: { corpus: string; out: string; json?: boolean }) => (await loadModules(() => import('./corpus-command-actions.ts'))).runBuild(options));

  program
    .command(verify)
    .description('check that a snapshot is intact and that the corpus reproduces it byte for byte')
    .argument('<file>', 'snapshot file (.sqlite)')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .option('--archive <dir>', 'also check that every record the evidence lines name is in this evidence archive and that its payload hashes to the digest they bind')
    .option('--json', 'print the check results as JSON')
    .action(async (file: string, options: { corpus: string; archive?: string; json?: boolean }) => (await loadModules(() => import('./corpus-command-actions.ts'))).runVerify(file, options));
}
