/**
 * The rehearsal's short `serve`: a commercial key issued into the rehearsal's own key store, the real
 * `hra serve` on an ephemeral loopback port, one licensed request, then SIGTERM.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CliFailure } from '../cli-failure.ts';
import { hraArgv, runHraStep } from './run-hra-step.ts';

const START_TIMEOUT_MS = 30_000;

/** What the one request got. */
export interface ServedRequest {
  url: string;
  path: string;
  status: number;
  count: number;
  revision: string;
}

/** Issues a key, serves `distDir/current.sqlite`, asks for `city`'s programs, and stops the gateway. */
export async function serveOneRequest(options: { distDir: string; city: string; cwd: string }): Promise<ServedRequest> {
  const keys = join(options.distDir, 'keys.sqlite');
  const issued = await runHraStep('serve', ['keys', 'create', '--keys', keys, '--tier', 'commercial', '--label', 'rehearsal key', '--json'], options.cwd);
  const key = String(issued.json?.key);
  const child = spawn(process.execPath, hraArgv(['serve', '--dataset', join(options.distDir, 'current.sqlite'), '--keys', keys, '--port', '0', '--host', '127.0.0.1']), {
    cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(() => reject(new CliFailure(`rehearse: serve: hra serve printed no URL within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/\S+)\n/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(match[1] as string);
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        const line = stderr.split('\n').filter((text) => text.startsWith('hra: ')).at(-1);
        reject(new CliFailure(`rehearse: serve failed: ${line?.replace(/^hra: /, '') ?? `hra serve exited with ${code}`}`));
      });
    });
    const path = `/api/programs/${options.city}`;
    const response = await fetch(`${url}${path}`, { headers: { 'X-Api-Key': key } });
    const body = (await response.json()) as { count?: number; datasetRevision?: string };
    if (response.status !== 200) throw new CliFailure(`rehearse: serve: GET ${path} answered ${response.status}`);
    return { url, path, status: response.status, count: body.count ?? 0, revision: body.datasetRevision ?? '' };
  } finally {
    child.kill('SIGTERM');
    // A gateway that does not stop on SIGTERM must not hold the rehearsal open.
    const stuck = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(stuck);
  }
}
