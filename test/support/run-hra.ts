/** Runs the real `hra` CLI in a child process without blocking this one (a test's loopback fixture keeps answering). */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The project root, where `hra` runs (as `npm run hra` does). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A finished run. */
export interface HraRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts `hra <args>`; `finished` settles when it exits. */
export function spawnHra(args: readonly string[], env: Record<string, string> = {}): { child: ChildProcess; finished: Promise<HraRun> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const finished = new Promise<HraRun>((resolve) => child.once('close', (status, signal) => resolve({ status, signal, stdout, stderr })));
  return { child, finished };
}

/** Runs `hra <args>` to completion. */
export function runHra(args: readonly string[], env: Record<string, string> = {}): Promise<HraRun> {
  return spawnHra(args, env).finished;
}

/** The last line of a stream's text (the contract's one clear line, or the `--json` object). */
export function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}
