/**
 * A test server's child process on a loopback port picked free, stoppable as a crash would stop it and
 * restartable on the same port: what redis-server.ts and postgres-server.ts have in common.
 */
import type { ChildProcess } from 'node:child_process';
import { freePort } from './redis-server.ts';

/** The server child of one test: its port, and a start and a kill that keep that port. */
export interface PortBoundChild {
  readonly port: number;
  /** Starts the server again on the same port; resolves once `ready` does. */
  start(): Promise<void>;
  /** Sends `signal` and waits for the process to exit. */
  kill(): Promise<void>;
  /** Sends `signal` to the running process without waiting (SIGSTOP and SIGCONT stall and resume it). */
  signal(signal: NodeJS.Signals): void;
}

const live = new Map<ChildProcess, NodeJS.Signals>();
// Never leave a server behind, even when a test run dies.
process.once('exit', () => {
  for (const [child, signal] of live) child.kill(signal);
});

/**
 * Launches a server with `launch(port)` on a free port and waits for `ready`; a port taken between asking
 * and binding is retried, three times in all. `signal` is how `kill` stops it.
 */
export async function startOnFreePort(
  launch: (port: number) => ChildProcess,
  ready: (child: ChildProcess, port: number) => Promise<void>,
  signal: NodeJS.Signals,
): Promise<PortBoundChild> {
  let child: ChildProcess | undefined;
  let port = 0;
  const start = async (): Promise<void> => {
    child = launch(port);
    live.set(child, signal);
    await ready(child, port);
  };
  const kill = async (): Promise<void> => {
    const current = child;
    if (current === undefined || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill(signal);
    await exited;
    live.delete(current);
  };
  const signal_ = (sent: NodeJS.Signals): void => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) throw new Error(`no running process to send ${sent}`);
    child.kill(sent);
  };
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await start();
      return { port, start, kill, signal: signal_ };
    } catch (error) {
      await kill();
      if (attempt === 3) throw error;
    }
  }
}
