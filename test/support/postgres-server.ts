/**
 * A throwaway PostgreSQL cluster on a loopback port, for tests that must talk to a real PostgreSQL, as
 * redis-server.ts does for Redis: `initdb` in a temporary directory, `postgres` on a free port, trust
 * authentication for loopback only. PostgreSQL refuses to run as root, so under root the cluster is
 * created and run as the `postgres` system user (the Debian package's) in a directory handed to it.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, chownSync, constants, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import pg from 'pg';
import { startOnFreePort } from './port-bound-child.ts';
import { makeTempDir } from './temp-dir.ts';

/** A running test cluster. */
export interface PostgresServer {
  readonly port: number;
  /** A URL for a fresh, empty database of this cluster (one per call). */
  createDatabase(): Promise<string>;
  /**
   * Stops the server as a crash would: SIGQUIT, PostgreSQL's immediate shutdown, which kills every backend
   * at once without a checkpoint (SIGKILL of the postmaster alone would leave its backends running).
   */
  kill(): Promise<void>;
  /** Starts the server again on the same port and data directory (crash recovery keeps committed data). */
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** The directory holding initdb and postgres: the newest /usr/lib/postgresql/<version>/bin, else PATH. */
export function findPostgresBin(): string | undefined {
  const candidates: string[] = [];
  try {
    const versions = readdirSync('/usr/lib/postgresql').filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  } catch {
    // No Debian layout; PATH may still have the binaries.
  }
  candidates.push(...(process.env.PATH ?? '').split(delimiter).filter(Boolean));
  return candidates.find((dir) => ['initdb', 'postgres'].every((name) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }));
}

/** The node:test `skip` value for PostgreSQL tests: a one-line install hint when the server binaries are absent, else false. */
export function postgresServerSkip(): string | false {
  if (findPostgresBin() === undefined) return 'PostgreSQL server binaries (initdb, postgres) not found: apt-get install -y postgresql';
  if (process.getuid?.() === 0 && systemUser('postgres') === undefined) return 'running as root without a postgres system user to run PostgreSQL as';
  return false;
}

/** How to set up a test cluster. */
export interface PostgresServerOptions {
  /**
   * pg_hba.conf lines put before the cluster's own, which trust every connection: `host all carol
   * 127.0.0.1/32 scram-sha-256` makes the role `carol` (created by the test) need its password.
   */
  readonly hbaLines?: readonly string[];
}

/** Creates a cluster in a temporary directory and starts it; resolves once it accepts connections. */
export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error('PostgreSQL server binaries not found');
  const dir = makeTempDir('hra-postgres-');
  const runAs = process.getuid?.() === 0 ? systemUser('postgres') : undefined;
  if (runAs !== undefined) chownSync(dir, runAs.uid, runAs.gid);
  const data = join(dir, 'data');
  const initdb = spawnSync(join(bin, 'initdb'), ['-D', data, '--auth=trust', '--username=hra', '--encoding=UTF8', '--no-sync'], {
    encoding: 'utf8',
    ...(runAs ?? {}),
  });
  if (initdb.status !== 0) throw new Error(`initdb failed: ${initdb.stderr.trim().split('\n').at(-1) ?? initdb.status}`);
  // The first matching line decides, so the test's lines go first; the file keeps its owner and mode.
  if (options.hbaLines !== undefined) {
    const hba = join(data, 'pg_hba.conf');
    writeFileSync(hba, `${options.hbaLines.join('\n')}\n${readFileSync(hba, 'utf8')}`);
  }

  const launch = (port: number) => spawn(join(bin, 'postgres'), [
    '-D', data, '-p', String(port), '-k', dir,
    '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'full_page_writes=off',
  ], { stdio: ['ignore', 'pipe', 'pipe'], ...(runAs ?? {}) });
  // SIGQUIT: PostgreSQL's immediate shutdown (see `kill` above).
  const server = await startOnFreePort(launch, waitForConnection, 'SIGQUIT').catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  const { port } = server;
  let databases = 0;
  return {
    port,
    async createDatabase() {
      const name = `hra_test_${++databases}`;
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'hra', database: 'postgres' });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://hra@127.0.0.1:${port}/${name}`;
    },
    kill: server.kill,
    start: server.start,
    stop: async () => {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function systemUser(name: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

async function waitForConnection(child: ChildProcess, port: number): Promise<void> {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000)));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`postgres on port ${port} exited: ${output.trim().split('\n').at(-1) ?? ''}`);
    }
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'hra', database: 'postgres', connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`postgres on port ${port} did not accept connections within 30 s`);
}
