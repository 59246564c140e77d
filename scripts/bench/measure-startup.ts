/**
 * Start-up side by side (issue 25, goal 3, `npm run bench -- --startup`): each round runs, one after the
 * other, the compiled gateway with the production flags (and, with `--compare`, the ref's), the `hra`
 * launcher (scripts/hra-bin.js, which `npx hra` and a global `hra` run), `npx hra serve` itself,
 * `openssl dgst -sha256` of the served file and `node -e 0`. A gateway's time runs from spawn to its first
 * licensed 200; a command's from spawn to its exit. Rounds interleave the subjects, so a busy moment of a
 * shared machine hits all of them, and each subject is divided by the openssl of its own round.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spreadOf, type Spread } from './round-statistics.ts';

/** A gateway to start: the real CLI, with its dataset, key store and key. */
export interface StartupGateway {
  readonly kind: 'gateway';
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly apiKey: string;
  /** Read the `start-up` log line of this one (the phases of its start). */
  readonly phases?: boolean;
}

/** A command timed from spawn to exit. */
export interface StartupCommand {
  readonly kind: 'command';
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
}

/** One subject of the rounds. */
export type StartupSubject = StartupGateway | StartupCommand;

/** What the rounds run. */
export interface StartupConfig {
  readonly subjects: readonly StartupSubject[];
  /** The label of the subject every other is divided by (openssl's). */
  readonly reference: string;
  /** A licensed route: the first 200 on it ends a gateway's start-up. */
  readonly probePath: string;
  readonly rounds: number;
  /** Where the gateways' stderr files go. */
  readonly work: string;
}

/** The phases of a gateway's start, from the `phasesMs` of its `start-up` log line (ms since its process began). */
export type StartupPhases = Readonly<Record<string, number>>;

/** Every subject's times over the rounds and its ratio to the reference of each round. */
export interface StartupFigures {
  readonly rounds: number;
  readonly labels: readonly string[];
  readonly reference: string;
  /** Milliseconds, one per round, per label. */
  readonly times: Readonly<Record<string, readonly number[]>>;
  /** Per label: its time over the reference's in the same round, one per round. */
  readonly ratios: Readonly<Record<string, readonly number[]>>;
  /** The phases of each gateway that reports them, one object per round. */
  readonly phases: Readonly<Record<string, readonly StartupPhases[]>>;
}

/** Runs `config.rounds` interleaved rounds after one warm-up round (the file into the page cache, every binary read once). */
export async function measureStartup(config: StartupConfig, progress: (line: string) => void): Promise<StartupFigures> {
  const labels = config.subjects.map((subject) => subject.label);
  if (!labels.includes(config.reference)) throw new Error(`start-up reference ${config.reference} is not among ${labels.join(', ')}`);
  const times: Record<string, number[]> = Object.fromEntries(labels.map((label) => [label, []]));
  const phases: Record<string, StartupPhases[]> = {};
  for (const subject of config.subjects) await runSubject(subject, config, 'warm-up');
  for (let round = 1; round <= config.rounds; round++) {
    const line: string[] = [];
    for (const subject of config.subjects) {
      const outcome = await runSubject(subject, config, `round-${round}`);
      times[subject.label]?.push(outcome.ms);
      if (outcome.phases !== undefined) (phases[subject.label] ??= []).push(outcome.phases);
      line.push(`${subject.label} ${outcome.ms.toFixed(0)} ms`);
    }
    progress(`bench: start-up round ${round}/${config.rounds}: ${line.join(', ')}`);
  }
  const reference = times[config.reference] as number[];
  const ratios = Object.fromEntries(labels.map((label) => [label, (times[label] as number[]).map((ms, index) => ms / (reference[index] as number))]));
  return { rounds: config.rounds, labels, reference: config.reference, times, ratios, phases };
}

/** Median and min–max of a label's times and of its ratios to the reference. */
export function startupSpread(figures: StartupFigures, label: string): { ms: Spread; ratio: Spread } {
  return { ms: spreadOf(figures.times[label] ?? []), ratio: spreadOf(figures.ratios[label] ?? []) };
}

/** What one run of a subject gave. */
interface SubjectRun {
  ms: number;
  phases?: StartupPhases;
}

async function runSubject(subject: StartupSubject, config: StartupConfig, tag: string): Promise<SubjectRun> {
  if (subject.kind === 'command') return { ms: await timeExit(subject) };
  const logFile = join(config.work, `startup-${tag}-${subject.label.replace(/\W+/g, '-')}.log`);
  const ms = await timeFirstResponse(subject, config.probePath, logFile);
  return subject.phases === true ? { ms, phases: startupPhases(logFile) } : { ms };
}

/** Milliseconds from spawn to exit (status 0, or it throws). */
function timeExit(subject: StartupCommand): Promise<number> {
  return new Promise((resolve, reject) => {
    const spawnedAt = performance.now();
    const child = spawn(subject.command, subject.args, { cwd: subject.cwd, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - spawnedAt) : reject(new Error(`${subject.label} exited ${code}`))));
  });
}

/**
 * Milliseconds from spawn to the first 200 on the probe path, asked every 5 ms from the `listening on` line
 * on. The server runs in its own process group (npx runs it a few processes down), which is ended whole.
 */
async function timeFirstResponse(subject: StartupGateway, probePath: string, logFile: string): Promise<number> {
  const errorFd = openSync(logFile, 'a');
  const spawnedAt = performance.now();
  const child = spawn(subject.command, subject.args, { cwd: subject.cwd, stdio: ['ignore', 'pipe', errorFd], detached: true });
  closeSync(errorFd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match) resolve(match[1] as string);
      });
      void exited.then(() => reject(new Error(`${subject.label} exited before listening: ${lastLine(logFile)}`)));
    });
    const deadline = spawnedAt + 60_000;
    for (;;) {
      const response = await fetch(`${url}${probePath}`, { headers: { 'X-Api-Key': subject.apiKey } }).catch(() => undefined);
      await response?.arrayBuffer();
      if (response?.status === 200) return performance.now() - spawnedAt;
      if (performance.now() > deadline) throw new Error(`${subject.label} never answered 200 on ${probePath} (last status ${response?.status ?? 'none'})`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-(child.pid as number), 'SIGTERM');
        await exited;
      } catch {
        // the group is gone already
      }
    }
  }
}

/** The `phasesMs` of the gateway's `start-up` log line, when it wrote one. */
function startupPhases(logFile: string): StartupPhases | undefined {
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"phasesMs"')) continue;
    try {
      return (JSON.parse(line) as { phasesMs: StartupPhases }).phasesMs;
    } catch {
      // not a JSON line
    }
  }
  return undefined;
}

function lastLine(file: string): string {
  return readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '';
}
