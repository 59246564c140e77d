/**
 * Starts a private nginx (Debian's package) as a caching reverse proxy in front of a test gateway: a
 * generated configuration with the shared cache in its default form (`proxy_cache_path`, `proxy_cache`),
 * every path nginx writes (pid, logs, temp files, cache) in a temporary folder, on a free loopback port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { makeTempDir } from './temp-dir.ts';

/** Debian's nginx, unless NGINX_PATH names another build. */
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** A running nginx and what a test reads of it. */
export interface TestNginx {
  url: string;
  /** The error log so far (a failed start or a proxy error says why there). */
  errorLog(): string;
  close(): Promise<void>;
}

/** A loopback port free a moment ago (nginx cannot listen on port 0 and report the port it got). */
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

/**
 * The configuration: a shared cache as its documentation shows it, `X-Cache-Status` added so a test sees
 * what the cache did. `user root` only under root: the workers otherwise run as `nobody`, which cannot
 * write the temporary folder.
 */
function nginxConfig(dir: string, port: number, upstream: string): string {
  return [
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 256; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${name}_temp_path ${join(dir, `${name}-temp`)};`),
    `  proxy_cache_path ${join(dir, 'cache')} keys_zone=gateway:1m;`,
    '  server {',
    `    listen 127.0.0.1:${port};`,
    '    location / {',
    `      proxy_pass ${upstream};`,
    '      proxy_cache gateway;',
    '      proxy_cache_revalidate on;',
    '      add_header X-Cache-Status $upstream_cache_status always;',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}

const accepting = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Starts nginx in front of `upstream` (`http://127.0.0.1:<port>`) and resolves once it accepts connections. */
export async function startTestNginx(upstream: string): Promise<TestNginx> {
  const dir = makeTempDir('hra-nginx-');
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, port, upstream));
  // -e: the compiled-in error log (/var/log/nginx) is opened before the configuration is read.
  const child: ChildProcess = spawn(NGINX, ['-c', conf, '-p', dir, '-e', join(dir, 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
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
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) break;
    if (await accepting(port)) return { url: `http://127.0.0.1:${port}`, errorLog, close };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const why = `nginx did not start on 127.0.0.1:${port}: ${stderr.trim() || errorLog().trim() || 'no output'}`;
  await close();
  throw new Error(why);
}
