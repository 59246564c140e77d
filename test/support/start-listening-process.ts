/**
 * Starts a server program that cannot listen on port 0 and say which port it got (nginx, Squid) on a
 * loopback port free a moment ago, and waits until it accepts connections.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';

/** A loopback port free a moment ago. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function accepting(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** What to start and how to say why it did not. */
export interface ListeningProcessOptions {
  /** The program's name in the failure message. */
  name: string;
  command: string;
  args: readonly string[];
  port: number;
  /** Tries 50 ms apart before giving up. */
  attempts: number;
  /** Why it did not start, from its own logs; its stderr is used when this says nothing. */
  diagnose: () => string;
  /** Runs after the process has ended, on close or on a failed start (removing its folder). */
  cleanUp: () => void;
}

/** Spawns the program and resolves with `close` once it accepts connections on 127.0.0.1:`port`. */
export async function startListeningProcess(options: ListeningProcessOptions): Promise<{ close(): Promise<void> }> {
  const child: ChildProcess = spawn(options.command, [...options.args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    options.cleanUp();
  };
  for (let attempt = 0; attempt < options.attempts; attempt++) {
    if (child.exitCode !== null) break;
    if (await accepting(options.port)) return { close };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const why = `${options.name} did not start on 127.0.0.1:${options.port}: ${options.diagnose().trim() || stderr.trim() || 'no output'}`;
  await close();
  throw new Error(why);
}
