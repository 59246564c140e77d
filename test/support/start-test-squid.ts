/**
 * Starts a private Squid (Debian's package) as a caching reverse proxy (an accelerator) in front of a test
 * gateway: its documented `accel` setup with a memory cache, every path it writes (pid, logs) in a
 * temporary folder, on a free loopback port. Squid stores `no-cache` responses and revalidates them before
 * each reuse, as RFC 9111 describes, where nginx and Varnish in their defaults store nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { makeTempDir } from './temp-dir.ts';

/** Debian's Squid, unless SQUID_PATH names another build. */
export const SQUID = process.env.SQUID_PATH ?? '/usr/sbin/squid';

/** A running Squid and what a test reads of it. */
export interface TestSquid {
  url: string;
  /** Squid's access log so far: one line per request, with what the cache did (`TCP_REFRESH_UNMODIFIED`, ...). */
  accessLog(): string;
  close(): Promise<void>;
}

/** A loopback port free a moment ago (Squid cannot listen on port 0 and report the port it got). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const accepting = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const readOr = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** Starts Squid in front of `upstream` (`http://127.0.0.1:<port>`) and resolves once it accepts connections. */
export async function startTestSquid(upstream: string): Promise<TestSquid> {
  const dir = makeTempDir('hra-squid-');
  // Under root Squid runs as Debian's `proxy` user, which must write its logs here.
  chmodSync(dir, 0o777);
  const { hostname, port: upstreamPort } = new URL(upstream);
  const port = await freePort();
  const conf = join(dir, 'squid.conf');
  writeFileSync(conf, [
    `http_port 127.0.0.1:${port} accel defaultsite=gateway no-vhost`,
    `cache_peer ${hostname} parent ${upstreamPort} 0 no-query originserver name=gateway`,
    'cache_peer_access gateway allow all',
    'http_access allow all',
    'cache_mem 8 MB',
    'buffered_logs off',
    `pid_filename ${join(dir, 'squid.pid')}`,
    `cache_log ${join(dir, 'cache.log')}`,
    `access_log stdio:${join(dir, 'access.log')} squid`,
    `coredump_dir ${dir}`,
    'shutdown_lifetime 0 seconds',
    '',
  ].join('\n'));
  const child: ChildProcess = spawn(SQUID, ['-N', '-f', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) break;
    if (await accepting(port)) return { url: `http://127.0.0.1:${port}`, accessLog: () => readOr(join(dir, 'access.log')), close };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const why = `squid did not start on 127.0.0.1:${port}: ${(readOr(join(dir, 'cache.log')) || stderr).trim().split('\n').slice(-5).join(' | ') || 'no output'}`;
  await close();
  throw new Error(why);
}
