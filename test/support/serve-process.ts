/** Runs the real `hra serve` as a child process, for tests of several gateways sharing their storage. */
import { spawn, type ChildProcess } from 'node:child_process';

const START_TIMEOUT_MS = 30_000;

/** A running `hra serve` and the URL it printed. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** The last few kilobytes of its stderr (its JSON log lines), for failure messages. */
  stderr(): string;
}

/** Spawns `hra serve` with `args` and resolves with the URL it prints once it accepts requests. */
export function serve(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => fail(new Error(`hra serve printed no URL within ${START_TIMEOUT_MS} ms: ${stderr}`)), START_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('exit', (code) => fail(new Error(`hra serve exited with ${code}: ${stderr}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)\n/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ url: match[1]!, child, stderr: () => stderr });
      }
    });
  });
}

/** Stops a served gateway with SIGTERM and waits for it to exit. */
export async function stopServe(process: ServeProcess | undefined): Promise<void> {
  if (process === undefined || process.child.exitCode !== null) return;
  const exited = new Promise((resolve) => process.child.once('exit', resolve));
  process.child.kill('SIGTERM');
  await exited;
}
