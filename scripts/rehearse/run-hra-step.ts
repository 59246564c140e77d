/**
 * Runs one `hra` command of the rehearsal as a child process, as an operator would type it (scripts/hra-bin.js,
 * with the heap cap `npm run hra` starts it with), and hands back its `--json` summary. A failed step is a
 * CliFailure naming the step and the command's own `hra:` line.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CliFailure } from '../cli-failure.ts';

const HRA_BIN = fileURLToPath(new URL('../hra-bin.js', import.meta.url));

/** The output of a finished command. */
export interface StepOutput {
  stdout: string;
  stderr: string;
  /** The last stdout line parsed as JSON, when it is an object. */
  json: Record<string, unknown> | undefined;
}

/** The child's argv: node, its heap cap, the hra entry point and `args`. */
export function hraArgv(args: readonly string[]): string[] {
  return ['--max-old-space-size=768', HRA_BIN, ...args];
}

/** Runs `hra <args>` in `cwd`; rejects with a CliFailure naming `step` when it exits non-zero. */
export function runHraStep(step: string, args: readonly string[], cwd: string): Promise<StepOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, hraArgv(args), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error) => reject(new CliFailure(`rehearse: ${step}: cannot start hra (${error.message})`)));
    child.once('close', (code, signal) => {
      if (code !== 0) {
        const line = stderr.trimEnd().split('\n').filter((text) => text.startsWith('hra: ')).at(-1) ?? `exit ${code ?? signal}`;
        return reject(new CliFailure(`rehearse: ${step} failed: ${line.replace(/^hra: /, '')} (hra ${args.join(' ')})`));
      }
      const last = stdout.trimEnd().split('\n').at(-1) ?? '';
      let json: Record<string, unknown> | undefined;
      try {
        const parsed: unknown = JSON.parse(last);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      resolve({ stdout, stderr, json });
    });
  });
}
