/** Spawned servers of a bench run: started, waited for, measured (RSS from /proc) and stopped. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A spawned server that printed `listening on URL`. */
export interface BenchProcess {
  readonly pid: number;
  readonly url: string;
  /** Milliseconds from spawn to the `listening on` line. */
  readonly listeningMs: number;
  readonly spawnedAt: number;
  /** Sends SIGTERM and waits for the exit (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();
// Never leave a server behind, even when the bench dies.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Spawns `command args` in `cwd` and resolves once it prints `listening on http://…` on stdout. */
export async function spawnServer(command: string, args: readonly string[], cwd: string, timeoutMs = 60_000): Promise<BenchProcess> {
  const spawnedAt = performance.now();
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')}: no "listening on" within ${timeoutMs} ms: ${stderr.trim()}`)), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = stdout.match(/listening on (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code ?? signal}) before listening: ${stderr.trim().split('\n').at(-1) ?? ''}`));
    });
  });
  const listeningMs = performance.now() - spawnedAt;
  return {
    pid: child.pid as number,
    url,
    listeningMs,
    spawnedAt,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      live.delete(child);
    },
  };
}

/** Resident set size of a process in bytes (VmRSS of /proc/<pid>/status), or undefined off Linux. */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; reports the peak seen. */
export function sampleResident(pid: number, everyMs = 200): { stop(): number | undefined } {
  let peak: number | undefined;
  const sample = () => {
    const bytes = residentBytes(pid);
    if (bytes !== undefined) peak = Math.max(peak ?? 0, bytes);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
