/**
 * Generates the scale corpus and builds it with the real CLI in a child process, timing the build and
 * reading its peak RSS: from GNU `/usr/bin/time -v` when present, else from a preloaded module that
 * prints `process.resourceUsage().maxRSS` at exit. Either way the figure is the build process's own.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { COMPILED_DIR } from '../../build/revision/compiled-sources.ts';
import { spreadOf, type Spread } from './round-statistics.ts';
import { watchProcessTree } from './sample-process-tree.ts';

/** The build's figures. */
export interface BuildFigures {
  rows: number;
  synthSeconds: number;
  buildSeconds: number;
  peakRssBytes: number | undefined;
  /** How the peak RSS was read. */
  rssSource: string;
  revision: string;
  /**
   * The build against the plain SQLite build of the same rows (scripts/bench/snapshot-rows-baseline.ts:
   * every row the built snapshot stores, written with its pragmas, tables and indexes), run alternately in
   * the same run: every build's and every baseline's wall seconds (the first build's is `buildSeconds`),
   * and their CPU seconds (user + system) where GNU time reads them.
   */
  baseline: { rounds: number; buildSeconds: Spread; baselineSeconds: Spread; buildCpuSeconds?: Spread; baselineCpuSeconds?: Spread };
}

/** Rounds of build and baseline: five at the published scale and below (issue 43), one above (a round takes a minute there). */
export function baselineRounds(scale: number): number {
  return scale > 1 ? 1 : 5;
}

const TIME = '/usr/bin/time';

/** Runs `hra synth` then `hra build`; progress lines are passed to `progress`. */
export async function measureBuild(root: string, corpusDir: string, outDir: string, scale: number, progress: (line: string) => void): Promise<BuildFigures> {
  // The build is measured as the operator contract runs it, `npm run hra -- build`: compiled, since the
  // bench compiled this tree first (Method item 1).
  const hra = hraCommand(root);
  const synthStarted = performance.now();
  const synth = await run(process.execPath, [...hra, 'synth', '--seed', '1', '--out', corpusDir, '--scale', String(scale)], root, progress);
  const synthSeconds = (performance.now() - synthStarted) / 1000;
  const rows = Number(synth.stdout.match(/(\d+) rows over/)?.[1] ?? Number.NaN);

  // Build and baseline alternate, so both see the same load; the first build is the one the bench serves.
  // Compiled, with the build's heap cap: the same start-up as the build's, so the ratio is of the work.
  const rowsBaseline = [...hraHeapCap(root), join(root, COMPILED_DIR, 'scripts/bench/snapshot-rows-baseline.js')];
  const rowsFile = `${outDir}-rows.bin`;
  const builds: MeasuredRun[] = [];
  const baselines: MeasuredRun[] = [];
  for (let round = 0; round < baselineRounds(scale); round++) {
    const out = round === 0 ? outDir : `${outDir}-round-${round}`;
    const measured = await runWithPeakRss([...hra, 'build', '--corpus', corpusDir, '--out', out], root, progress);
    builds.push(measured);
    // The first build's rows, dumped untimed: what the baseline writes.
    if (round === 0) await run(process.execPath, [...rowsBaseline, 'dump', join(out, 'current.sqlite'), rowsFile], root);
    else rmSync(out, { recursive: true, force: true });
    const baselineFile = `${outDir}-rows-baseline-${round}.sqlite`;
    baselines.push(await runWithPeakRss([...rowsBaseline, 'write', rowsFile, baselineFile], root, () => {}));
    rmSync(baselineFile, { force: true });
    progress(`bench: round ${round + 1}: build ${measured.seconds.toFixed(1)} s, plain SQLite build of the same rows ${baselines.at(-1)!.seconds.toFixed(1)} s`);
  }
  rmSync(rowsFile, { force: true });
  const build = builds[0];
  if (build === undefined) throw new Error('no build round ran');
  const revision = build.stdout.trim().split('\n').at(-1) ?? '';
  return {
    rows,
    synthSeconds,
    buildSeconds: build.seconds,
    peakRssBytes: build.peakRssBytes,
    rssSource: build.rssSource,
    revision,
    baseline: {
      rounds: builds.length,
      buildSeconds: spreadOf(builds.map((measured) => measured.seconds)),
      baselineSeconds: spreadOf(baselines.map((measured) => measured.seconds)),
      ...cpuSpreads(builds, baselines),
    },
  };
}

/** The CPU spreads of build and baseline rounds, when every round's CPU was read. */
function cpuSpreads(builds: readonly MeasuredRun[], baselines: readonly MeasuredRun[]): { buildCpuSeconds?: Spread; baselineCpuSeconds?: Spread } {
  const cpu = (runs: readonly MeasuredRun[]) => runs.map((measured) => measured.cpuSeconds).filter((seconds): seconds is number => seconds !== undefined);
  const buildCpu = cpu(builds);
  const baselineCpu = cpu(baselines);
  if (buildCpu.length !== builds.length || baselineCpu.length !== baselines.length) return {};
  return { buildCpuSeconds: spreadOf(buildCpu), baselineCpuSeconds: spreadOf(baselineCpu) };
}

/** A child process's output, wall time and peak RSS. */
export interface MeasuredRun {
  stdout: string;
  stderr: string;
  seconds: number;
  peakRssBytes: number | undefined;
  rssSource: string;
  /** User + system CPU seconds of the process, its threads and every child it waited for (wait4's rusage), from GNU time; undefined without it. */
  cpuSeconds: number | undefined;
  /** The highest sum of RSS over the run and every process below it, sampled every TREE_SAMPLE_MS. */
  peakTreeRssBytes: number;
}

/** How often a measured run's process tree is sampled, in ms. */
export const TREE_SAMPLE_MS = 100;

/** Runs `node <nodeArgs>` to completion, measuring its wall time, its own peak RSS and its process tree's. */
export async function runWithPeakRss(nodeArgs: readonly string[], root: string, progress: (line: string) => void): Promise<MeasuredRun> {
  const useTime = hasGnuTime();
  const started = performance.now();
  let tree: ReturnType<typeof watchProcessTree> | undefined;
  const watch = (pid: number) => (tree = watchProcessTree(pid, TREE_SAMPLE_MS));
  const result = await (useTime
    ? run(TIME, ['-v', process.execPath, ...nodeArgs], root, progress, watch)
    : run(process.execPath, ['--import', join(root, 'scripts/bench/report-max-rss.ts'), ...nodeArgs], root, progress, watch))
    .finally(() => tree?.stop());
  const peakTreeRssBytes = tree?.stop().sum ?? 0;
  const seconds = (performance.now() - started) / 1000;
  const kb = useTime
    ? result.stderr.match(/Maximum resident set size \(kbytes\): (\d+)/)?.[1]
    : result.stderr.match(/bench-max-rss-kb (\d+)/)?.[1];
  const cpu = useTime ? [/User time \(seconds\): ([\d.]+)/, /System time \(seconds\): ([\d.]+)/].map((pattern) => result.stderr.match(pattern)?.[1]) : [];
  return {
    ...result,
    seconds,
    peakRssBytes: kb === undefined ? undefined : Number(kb) * 1024,
    cpuSeconds: cpu.length === 2 && cpu.every((value) => value !== undefined) ? Number(cpu[0]) + Number(cpu[1]) : undefined,
    rssSource: useTime ? '/usr/bin/time -v' : 'process.resourceUsage().maxRSS at exit',
    peakTreeRssBytes,
  };
}

function hasGnuTime(): boolean {
  try {
    accessSync(TIME, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Runs a command to completion; rejects with its last stderr line on a non-zero exit. */
export function run(command: string, args: readonly string[], cwd: string, progress: (line: string) => void = () => {}, spawned: (pid: number) => void = () => {}): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) spawned(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      stderr += text;
      for (const line of text.split('\n')) if (/^(synth|corpus|build|links):/.test(line)) progress(line);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${args.filter((arg) => !arg.startsWith('-')).slice(-6).join(' ')} failed (${code}): ${stderr.trim().split('\n').at(-1) ?? ''}`));
    });
  });
}

/**
 * `npm run hra` of the tree at `root` as node arguments: the node flags of package.json's `hra` script
 * (the heap cap among them) and its entry script, made absolute. The bench runs each tree's commands as
 * its operator does: this tree's launcher, which runs dist/js when it is current (the bench compiles
 * first); an older tree's `--import tsx scripts/hra.ts`.
 */
export function hraCommand(root: string): string[] {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { hra: string } }).scripts.hra;
  const words = script.trim().split(/\s+/);
  const entry = words.at(-1) ?? '';
  if (words[0] !== 'node' || !/^scripts\/hra(-bin\.js|\.ts)$/.test(entry)) throw new Error(`package.json scripts.hra is not "node <flags> scripts/hra-bin.js" (or scripts/hra.ts): ${script}`);
  return [...words.slice(1, -1), join(root, entry)];
}

/** The heap cap of package.json's `hra` script, which the plain SQLite baseline runs with as the build does. */
export function hraHeapCap(root: string): string[] {
  return hraCommand(root).filter((word) => /^--max-old-space-size=\d+$/.test(word));
}
