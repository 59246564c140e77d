/**
 * The `hra` command line (operator contract: ../shared/operator-contract.md). The only place that
 * touches argv and the exit code; every subcommand lives in scripts/commands/ and registers itself here,
 * and run-cli.ts gives each the contract's failure behaviour (one stderr line, `--json` failure objects).
 *
 * `hra serve` starts hashing its snapshot before anything else is loaded: the modules imported statically
 * here import nothing but node's own, and everything else (commander, the gateway: the larger share of
 * start-up) is imported after the hash is under way on every core (docs/operators.md "Operations").
 */
import { readDescriptorLimit } from '../gateway/config/default-max-connections.ts';
import { holdTickObjectShape } from '../gateway/operations/hold-tick-object-shape.ts';
import { startSnapshotHash, type SnapshotHashInFlight } from '../gateway/snapshot/start-snapshot-hash.ts';
import { servedDatasetPath } from './commands/served-dataset-path.ts';
import { describeLoadFailure } from './describe-load-failure.ts';
import { endWithLauncher } from './end-with-parent.ts';

endWithLauncher();
// Read now: once the module loader has run out of descriptors, reading it could fail as well.
const descriptorLimit = readDescriptorLimit();
const args = process.argv.slice(2);
const dataset = servedDatasetPath(args, process.env);
const snapshotHash: SnapshotHashInFlight | undefined = dataset === undefined ? undefined : startSnapshotHash(dataset);
// Before the gateway's modules load and the collector first runs: later, the maps it keeps may be gone.
if (dataset !== undefined) holdTickObjectShape();
try {
  const [{ Command }, { packageVersion }, { runCli }, { exitAfterFailure }] = await Promise.all([import('commander'), import('./package-version.ts'), import('./run-cli.ts'), import('./exit-after-failure.ts')]);
  const program = new Command('hra')
    .description('home-repair-api: build, verify and serve the home-repair assistance dataset')
    .version(packageVersion(), '-V, --version', 'print the version of hra (package.json)');
  // Serving needs only its own command: registering the others would load the build and the link checker.
  if (dataset !== undefined) {
    const { registerServeCommand } = await import('./commands/serve-command.ts');
    registerServeCommand(program, { snapshotHash });
  }
  else {
    // So do the corpus commands: every command's modules (the link checker, the gateway, ...) were a second
    // of CPU before `hra build` began (BENCHMARKS.md, issue 25, goal 2, second round).
    const corpusCommands = await import('./commands/corpus-commands.ts');
    if ((corpusCommands.CORPUS_COMMANDS as readonly string[]).includes(args[0] ?? '')) corpusCommands.registerCorpusCommands(program);
    else (await import('./commands/register-commands.ts')).registerCommands(program);
  }
  exitAfterFailure(await runCli(program, process.argv, 'node', { describeLoadFailure: (error) => describeLoadFailure(error, descriptorLimit) }));
} catch (error) {
  // runCli reports every failure of a command itself (a module its action could not load too, by the same
  // line): what arrives here is one of hra's own modules that did not load (a low `ulimit -n` makes the
  // loader fail), which would otherwise end as an uncaught stack trace.
  process.stderr.write(`hra: ${describeLoadFailure(error, descriptorLimit)}\n`);
  process.exitCode = 1;
} finally {
  // Taken over by the start-up check when serving; otherwise (a refused configuration) its workers stop here.
  snapshotHash?.release();
}
