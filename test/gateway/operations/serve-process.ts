/**
 * Runs the real `hra serve` as a child process for the operations tests: two real revisions published into
 * one out dir (so `current.sqlite` can be repointed), a real key store, and the process's stdout, stderr
 * and exit observed as an operator would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, rmSync, writeFileSync } from 'node:fs';
import { request, type Agent } from 'node:http';
import { join } from 'node:path';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { buildAndPublish, pointCurrentAt } from '../../../build/snapshot/publish-snapshot.ts';
import { openKeyStore } from '../../../gateway/keys/sqlite-key-store.ts';
import { GENEROUS_LIMITS, MINI_CORPUS } from '../../support/start-test-gateway.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

/** One published revision. */
export interface PublishedRevision {
  revision: string;
  /** File name inside the out dir (`<revision>.sqlite`). */
  name: string;
  file: string;
}

/** Revisions A (the mini corpus) and B (the same plus change event 8), published into `out`. */
export interface TwoRevisions {
  dir: string;
  out: string;
  /** `out/current.sqlite`, pointed at A. */
  dataset: string;
  keysFile: string;
  limitsFile: string;
  commercialKey: string;
  a: PublishedRevision;
  b: PublishedRevision;
  remove(): void;
}

/** Change event 8 of revision B: newer than every event of A. */
const EVENT_8 = { id: 8, detectedAt: '2026-11-16T06:00:00Z', city: 'beta', programId: 'b-repair', programName: 'Beta Emergency Repair', type: 'status-changed', fromStatus: 'available', toStatus: 'waitlist' };

/** Builds A and B into a fresh folder, points `current.sqlite` at A and issues one commercial key. */
export async function publishTwoRevisions(): Promise<TwoRevisions> {
  const dir = makeTempDir('hra-operations-');
  const out = join(dir, 'dist');
  const corpusB = join(dir, 'corpus-b');
  cpSync(MINI_CORPUS, corpusB, { recursive: true });
  appendFileSync(join(corpusB, 'changes.ndjson'), `${JSON.stringify(EVENT_8)}\n`);
  const published = (corpus: string): PublishedRevision => {
    const { revision, file } = buildAndPublish(loadCorpus(corpus), out);
    return { revision, name: `${revision}.sqlite`, file };
  };
  const b = published(corpusB);
  const a = published(MINI_CORPUS);
  pointCurrentAt(out, a.name);
  const keysFile = join(dir, 'keys.sqlite');
  const store = openKeyStore(keysFile, { now: () => new Date() });
  const commercial = await store.createKey({ tier: 'commercial', label: 'operations test' });
  await store.close();
  const limitsFile = join(dir, 'limits.json');
  writeFileSync(limitsFile, JSON.stringify(GENEROUS_LIMITS));
  return {
    dir, out, dataset: join(out, 'current.sqlite'), keysFile, limitsFile, commercialKey: commercial.key, a, b,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A running (or exited) `hra serve` process. */
export interface ServeProcess {
  readonly child: ChildProcess;
  /** Base URL from the `listening on` line; empty when the process never listened. */
  readonly url: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** stderr as parsed JSON log lines (lines that are not JSON are skipped). */
  logLines(): Array<Record<string, unknown>>;
  /** Resolves once a log line satisfies `match`, or rejects after `timeoutMs`. */
  waitForLog(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves with the exit code (or signal name) and when it happened. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Spawns `node --import tsx scripts/hra.ts serve --port 0 ...` and resolves once it prints
 * `listening on`, or once it exits (then `url` is empty).
 */
export async function spawnServe(args: readonly string[], timeoutMs = 90_000): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() }));
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "listening on" within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve(match[1] ?? '');
      }
    };
    child.stdout.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      resolve('');
    });
  });
  const logLines = () =>
    stderr.split('\n').flatMap((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        return parsed !== null && typeof parsed === 'object' ? [parsed as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
  return {
    child,
    url,
    stdout: () => stdout,
    stderr: () => stderr,
    logLines,
    async waitForLog(match, wait = 30_000) {
      const deadline = performance.now() + wait;
      for (;;) {
        const found = logLines().find(match);
        if (found) return found;
        if (performance.now() > deadline) throw new Error(`no matching log line within ${wait} ms; stderr:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    exited,
    kill: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

/** One response as the load client saw it. */
export interface Observed {
  status: number;
  revision: string | null;
  connection: string | null;
  body: string;
}

/** GET over `agent` (one keep-alive connection per load loop), with the error code on failure. */
export function get(url: string, agent: Agent, headers: Record<string, string> = {}): Promise<Observed> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          revision: (response.headers['x-dataset-revision'] as string | undefined) ?? null,
          connection: response.headers.connection ?? null,
          body,
        }),
      );
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
