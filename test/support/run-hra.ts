/**
 * Runs the real `hra` CLI as package.json's `hra` script does (node with the tsx loader, no npm) and
 * captures what it printed. Paths are absolute, so a test may run it from any working directory; HRA_*
 * variables of the caller's environment are dropped so that only the test's own settings apply.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The project root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `node --import <tsx>` with the loader resolved from here, so it works whatever the working directory. */
export const TSX_NODE_ARGS = ['--import', import.meta.resolve('tsx')] as const;

/** What one run printed and how it ended. */
export interface HraRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Where and with what environment to run. */
export interface HraRunOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Default `scripts/hra.ts`; `scripts/start.ts` for the quick start. */
  readonly script?: string;
}

/** The environment of a run: the caller's without HRA_*, plus `extra`. */
export function hraEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('HRA_')) env[name] = value;
  return { ...env, ...extra };
}

/** A run that should end but does not (a `serve` that should have refused to start) is killed after this. */
const RUN_TIMEOUT_MS = 120_000;

/** Runs `hra <args>` to completion (or until killed after two minutes, which fails any status check). */
export function runHra(args: readonly string[], options: HraRunOptions = {}): HraRun {
  const result = spawnSync(process.execPath, [...TSX_NODE_ARGS, `${ROOT}${options.script ?? 'scripts/hra.ts'}`, ...args], {
    cwd: options.cwd ?? ROOT,
    env: hraEnv(options.env),
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `hra <args>` without waiting, for tests that signal it or wait for a line. */
export function spawnHra(args: readonly string[], options: HraRunOptions = {}): ChildProcess {
  return spawn(process.execPath, [...TSX_NODE_ARGS, `${ROOT}${options.script ?? 'scripts/hra.ts'}`, ...args], {
    cwd: options.cwd ?? ROOT,
    env: hraEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The non-empty lines a run wrote to stderr. */
export function stderrLines(run: HraRun): string[] {
  return run.stderr.split('\n').filter((line) => line !== '');
}

/** The last stdout line, parsed as the JSON object the contract promises with `--json`. */
export function lastJsonLine(run: HraRun): Record<string, unknown> {
  const last = run.stdout.trimEnd().split('\n').at(-1) ?? '';
  const value = JSON.parse(last) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`last stdout line is not a JSON object: ${last}`);
  return value as Record<string, unknown>;
}

/** The run a spawned child ends as, once it has closed its output. */
export function finishedRun(child: ChildProcess): Promise<HraRun> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve) => child.once('close', (status, signal) => resolve({ status, signal, stdout, stderr })));
}

/**
 * Runs `hra <args>`, kills it with SIGKILL once `file` holds `lines` more lines than when it started (within
 * 20 s), and returns how it ended: a run interrupted mid-append, as a crash or an operator's kill would.
 */
export async function killAfterAppended(args: readonly string[], file: string, lines: number): Promise<HraRun> {
  const count = () => readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').length;
  const base = count();
  const child = spawnHra(args);
  const finished = finishedRun(child);
  for (let waited = 0; count() < base + lines; waited += 20) {
    if (waited >= 20_000) {
      child.kill('SIGKILL');
      await finished;
      throw new Error(`the run did not append ${lines} lines to ${file} within 20 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGKILL');
  return finished;
}

/** Runs `hra <args>` without blocking this process, so a loopback fixture served from it keeps answering. */
export function runHraAsync(args: readonly string[], options: HraRunOptions = {}): Promise<HraRun> {
  return finishedRun(spawnHra(args, options));
}

/** The last line of a stream's text (the contract's one clear line, or the `--json` object). */
export function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

/** A served process's URL, and everything it wrote to stderr so far. */
export interface Listening {
  readonly url: string;
  stderr(): string;
}

/**
 * Resolves once `child` (an `hra serve` or `npm start`) prints its `listening on` line; rejects, with its
 * stderr, if it exits first or stays silent for `timeoutMs`.
 */
export function waitForListening(child: ChildProcess, timeoutMs = 60_000): Promise<Listening> {
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise<Listening>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`no listening line within ${timeoutMs / 1000} s; stderr: ${stderr}`)), timeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], stderr: () => stderr });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}; stderr: ${stderr}`));
    });
  });
}
