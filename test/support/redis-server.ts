import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { startOnFreePort } from './port-bound-child.ts';
import { makeTempDir } from './temp-dir.ts';

/** A throwaway redis-server on a loopback port, for tests that must talk to a real Redis. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Kills the server abruptly (SIGKILL), as a crash would; `start()` brings it back on the same port. */
  kill(): Promise<void>;
  /** Starts the server again on the same port, empty (nothing is persisted). */
  start(): Promise<void>;
  /** Stalls the server (SIGSTOP): connections stay open and nothing is answered until `resume()`. */
  pause(): void;
  /** Lets a paused server run again (SIGCONT); it answers what it was sent meanwhile. */
  resume(): void;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** The node:test `skip` value for Redis tests: a one-line install hint when redis-server is not on PATH, else false. */
export function redisServerSkip(): string | false {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const found = dirs.some((dir) => {
    try {
      accessSync(join(dir, 'redis-server'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  return found ? false : 'redis-server not found: apt-get install -y redis-server';
}

/** Asks the OS for a free loopback port (free when asked; the caller binds it soon after). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port from the OS');
  return address.port;
}

/** Starts redis-server (no persistence) on a free loopback port in a temporary directory; resolves once it answers PING. */
export async function startRedisServer(): Promise<RedisServer> {
  const dir = makeTempDir('hra-redis-');
  const launch = (port: number) => spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = await startOnFreePort(launch, waitForPing, 'SIGKILL');
  return {
    port: server.port,
    url: `redis://127.0.0.1:${server.port}`,
    kill: server.kill,
    start: server.start,
    pause: () => server.signal('SIGSTOP'),
    resume: () => server.signal('SIGCONT'),
    stop: async () => {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPing(child: ChildProcess, port: number): Promise<void> {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000)));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`redis-server on port ${port} exited: ${output.trim().split('\n').at(-1) ?? ''}`);
    }
    if (await answersPing(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within 10 s`);
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (answer: boolean): void => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
