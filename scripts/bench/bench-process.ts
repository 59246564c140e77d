/** Spawned servers of a bench run: started, waited for, measured (RSS from /proc) and stopped. */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

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
export async function spawnServer(command: string, args: readonly string[], cwd: string, stderrFile: string, timeoutMs = 60_000): Promise<BenchProcess> {
  const spawnedAt = performance.now();
  // stderr goes to a file, never a pipe: the gateway logs every request synchronously, and a pipe whose
  // reader lags (this process, on a busy machine) would stall the gateway's event loop and be measured.
  const errorFd = openSync(stderrFile, 'a');
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', errorFd] });
  closeSync(errorFd);
  live.add(child);
  const lastStderr = () => tailOf(stderrFile);
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')}: no "listening on" within ${timeoutMs} ms: ${lastStderr()}`)), timeoutMs);
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
      reject(new Error(`${args.join(' ')} exited (${code ?? signal}) before listening: ${lastStderr()}`));
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

/** CPU time (user + system) a process has used so far, in milliseconds, from /proc/<pid>/stat; undefined off Linux. */
export function cpuMillis(pid: number): number | undefined {
  const split = cpuSplitMillis(pid);
  return split === undefined ? undefined : split.userMs + split.systemMs;
}

/** The same, user and kernel (system) time apart: issue 43 reads where a gap lies from the two. */
export function cpuSplitMillis(pid: number): { userMs: number; systemMs: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesized command name; utime and stime are the 14th and 15th fields overall.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { userMs: (Number(fields[11]) * 1000) / CLOCK_TICKS_PER_SECOND, systemMs: (Number(fields[12]) * 1000) / CLOCK_TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux architecture Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

function tailOf(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '';
  } catch {
    return '';
  }
}
