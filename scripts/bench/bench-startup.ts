/**
 * `npm run bench -- --startup [--compare <ref>]`: the start-up phase on its own (issue 25, goal 3). Given
 * this tree compiled and the scale corpus built, it times the start of each way the gateway is run beside
 * `openssl dgst -sha256` of the same file and `node -e 0`, round by round (measure-startup.ts). With
 * `--compare`, the ref's tree is extracted and compiled (compare-tree.ts), builds the same corpus with its
 * own `hra build`, and its compiled gateway joins every round: before and after in one run.
 */
import { realpathSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { COMPILED_HRA, PRODUCTION_NODE_FLAGS } from './bench-gateway.ts';
import type { BenchOptions } from './bench-options.ts';
import { materializeTree } from './compare-tree.ts';
import { describeMachine } from './describe-machine.ts';
import type { BuildFigures } from './measure-build.ts';
import { hraCommand, runWithPeakRss } from './measure-build.ts';
import { measureStartup, type StartupSubject } from './measure-startup.ts';
import { renderStartupReport } from './render-startup.ts';

/** What the start-up phase shares with the rest of the run. */
export interface StartupContext {
  readonly root: string;
  readonly work: string;
  readonly options: BenchOptions;
  readonly command: string;
  readonly began: number;
  readonly loadAtStart: number;
  readonly build: BuildFigures;
  readonly corpus: string;
  readonly dataset: string;
  readonly keys: string;
  readonly limits: string;
  readonly apiKey: string;
  readonly probePath: string;
  /** Issues a commercial key into a key store with `tree`'s `hra keys create`. */
  readonly createKey: (keyStore: string, tree: string) => Promise<string>;
  readonly cleanup: Array<() => Promise<void>>;
  readonly progress: (line: string) => void;
}

const OPENSSL = 'openssl dgst -sha256';

/** Runs the start-up rounds and returns the section's Markdown. */
export async function benchStartup(context: StartupContext): Promise<string> {
  const { root, work, options, dataset, keys, limits, apiKey, progress } = context;
  const serveArgs = (datasetPath: string, keyStore: string) => ['serve', '--dataset', datasetPath, '--keys', keyStore, '--port', '0', '--limits', limits];
  const gateway = (label: string, tree: string, datasetPath: string, keyStore: string, key: string): StartupSubject => ({
    kind: 'gateway', label, command: process.execPath, args: [...PRODUCTION_NODE_FLAGS, join(tree, COMPILED_HRA), ...serveArgs(datasetPath, keyStore)], cwd: tree, apiKey: key, phases: true,
  });
  const subjects: StartupSubject[] = [];
  const notes: string[] = [];
  if (options.compare !== undefined) {
    const tree = await materializeTree(root, options.compare, progress);
    context.cleanup.push(async () => tree.remove());
    const distA = join(work, 'dist-a');
    const buildA = await runWithPeakRss([...hraCommand(tree.root), 'build', '--corpus', context.corpus, '--out', distA], tree.root, progress);
    progress(`bench: ${options.compare} build ${buildA.seconds.toFixed(1)} s`);
    const keysA = join(work, 'keys-a.sqlite');
    subjects.push(gateway(`gateway A (${options.compare}, compiled)`, tree.root, join(distA, 'current.sqlite'), keysA, await context.createKey(keysA, tree.root)));
    notes.push(`gateway A: ${options.compare} (${tree.commit.slice(0, 12)}), extracted, compiled and serving its own build of the same corpus (revision ${buildA.stdout.trim().split('\n').at(-1)?.slice(0, 16) ?? '?'}…); gateway B: this tree. The ratio of each is to the openssl of its own round.`);
  }
  subjects.push(
    gateway(options.compare === undefined ? 'gateway (compiled)' : 'gateway B (this tree, compiled)', root, dataset, keys, apiKey),
    // The launcher and npx run without the production V8 flags: `hra` takes none (docs/operators.md "Running in production").
    { kind: 'gateway', label: 'hra launcher (node scripts/hra-bin.js serve)', command: process.execPath, args: [join(root, 'scripts/hra-bin.js'), ...serveArgs(dataset, keys)], cwd: root, apiKey },
    { kind: 'gateway', label: 'npx hra serve', command: 'npx', args: ['--no-install', 'hra', ...serveArgs(dataset, keys)], cwd: root, apiKey },
    { kind: 'command', label: OPENSSL, command: 'openssl', args: ['dgst', '-sha256', realpathSync(dataset)], cwd: root },
    { kind: 'command', label: 'node -e 0', command: process.execPath, args: ['-e', '0'], cwd: root },
  );
  const target = subjects.find((subject) => subject.kind === 'gateway' && subject.label.startsWith('gateway') && !subject.label.startsWith('gateway A'))?.label as string;
  const figures = await measureStartup({ subjects, reference: OPENSSL, probePath: context.probePath, rounds: options.quick ? 5 : 9, work }, progress);
  notes.push(
    `each round runs every subject once, in the order of the table; a gateway's time is spawn to its first 200 on \`${context.probePath}\` with a commercial key (asked every 5 ms from its \`listening on\` line), a command's spawn to exit; the ratio is taken round by round, against the openssl of the same round.`,
    `gateways: \`node ${PRODUCTION_NODE_FLAGS.join(' ')} ${COMPILED_HRA} serve\` (Method item 3) with the embedded defaults (SQLite key store, in-memory limits); the launcher runs dist/js in its own process when it is current (\`npm run compile\` ran first), npx adds npm's own start.`,
    `file: ${(statSync(realpathSync(dataset)).size / 1e9).toFixed(2)} GB; ${availableParallelism()} CPUs: the gateway hashes the pieces of the tree its .sha256 binds on one worker per CPU (a .sha256 of one line, as builds before the bound tree wrote, on one worker as one stream), openssl the whole file on one.`,
  );
  return renderStartupReport({
    command: context.command,
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: describeMachine(),
    rows: context.build.rows,
    revision: context.build.revision,
    figures,
    target,
    loadAverage: { start: context.loadAtStart, end: loadavg()[0] ?? 0 },
    notes,
    elapsedSeconds: (performance.now() - context.began) / 1000,
  });
}
