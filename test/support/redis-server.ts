import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A throwaway redis-server on a loopback port, for tests that must talk to a real Redis. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Kills the server abruptly (SIGKILL), as a crash would; `start()` brings it back on the same port. */
  kill(): Promise<void>;
  /** Starts the server again on the same port, empty (nothing is persisted). */
  start(): Promise<void>;
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

const live = new Set<ChildProcess>();
// Never leave a server behind, even when a test run dies.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Starts redis-server (no persistence) on a free loopback port in a temporary directory; resolves once it answers PING. */
export async function startRedisServer(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'hra-redis-'));
  let child: ChildProcess | undefined;
  let port = 0;
  const start = async (): Promise<void> => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(child);
    await waitForPing(child, port);
  };
  const kill = async (): Promise<void> => {
    const current = child;
    if (current === undefined || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGKILL');
    await exited;
    live.delete(current);
  };
  // A port can be taken between asking and binding; try a few.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (error) {
      await kill();
      if (attempt === 3) throw error;
    }
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    stop: async () => {
      await kill();
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
