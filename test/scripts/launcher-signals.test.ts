/**
 * Signals end the command, through every way of starting it: the launcher (scripts/hra-bin.js) run from the
 * sources passes SIGINT, SIGTERM and SIGHUP to the child doing the work and ends as it does; SIGKILL of the
 * launcher leaves no child running; `npm start`, `npx hra serve` and `npm run hra -- serve` stop on SIGTERM
 * sent to npm itself, leaving no process behind (issues 41 and 42).
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openKeyStore } from '../../gateway/keys/sqlite-key-store.ts';
import { processAlive } from '../support/process-alive.ts';
import { hraEnv, ROOT, waitForListening } from '../support/run-hra.ts';
import { buildTestSnapshot, MINI_CORPUS } from '../support/start-test-gateway.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const dir = makeTempDir('hra-launcher-signals-');
let keys: string;
let dataset: string;
const started: ChildProcess[] = [];
before(() => {
  keys = join(dir, 'keys.sqlite');
  openKeyStore(keys, { now: () => new Date() }).close();
  dataset = buildTestSnapshot();
});
after(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Every process descended from `pid` now, from /proc; `depth` 1: its children only. */
function descendantsOf(pid: number, depth = Infinity): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // Gone since the listing.
    }
  }
  const found: number[] = [];
  for (let queue = [{ pid, level: 0 }]; queue.length > 0;) {
    const { pid: parent, level } = queue.shift()!;
    if (level === depth) continue;
    const children = parents.get(parent) ?? [];
    found.push(...children);
    queue.push(...children.map((child) => ({ pid: child, level: level + 1 })));
  }
  return found;
}

async function allGone(pids: readonly number[], withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  let alive = pids.filter(processAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    alive = pids.filter((pid) => processAlive(pid) && !isZombie(pid));
  }
  return alive;
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

function serveArgs(): string[] {
  return ['serve', '--dataset', dataset, '--keys', keys, '--port', '0', '--log-level', 'silent'];
}

/** Starts `file args` in `cwd` and waits until the gateway it leads to listens. */
async function startServing(file: string, args: readonly string[], cwd = ROOT, env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }> {
  const child = spawn(file, args, { cwd, env: hraEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const { url } = await waitForListening(child, 120_000);
  return { child, url, exited };
}

const launcher = join(ROOT, 'scripts/hra-bin.js');
// From the sources (this worktree has no dist/js), a command without the heap cap in node's own flags runs in a child.
const LAUNCHED = [launcher, ...serveArgs()];

describe('the launcher, run from the sources', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`passes ${signal} to its child${signal === 'SIGHUP' ? ' (a gateway reloads on it and keeps serving)' : ' and ends as it does, leaving nothing running'}`, async () => {
      const { child, url, exited } = await startServing(process.execPath, LAUNCHED);
      const below = descendantsOf(child.pid!);
      // The child's own children (tsx's esbuild service) may come and go; the work runs in one child.
      assert.equal(descendantsOf(child.pid!, 1).length, 1, 'the work runs in one child');
      child.kill(signal);
      if (signal === 'SIGHUP') {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        assert.equal((await fetch(`${url}/healthz`)).status, 200, 'still serving after SIGHUP');
        child.kill('SIGTERM');
      }
      const exit = await exited;
      assert.ok(exit.code === 0 || exit.signal === signal || exit.signal === 'SIGTERM', JSON.stringify(exit));
      assert.deepEqual(await allGone(below, 5000), []);
    });
  }

  it('SIGKILL of the launcher leaves no child running', async () => {
    const { child, exited } = await startServing(process.execPath, LAUNCHED);
    const below = descendantsOf(child.pid!);
    assert.equal(descendantsOf(child.pid!, 1).length, 1, 'the work runs in one child');
    child.kill('SIGKILL');
    await exited;
    assert.deepEqual(await allGone(below, 15_000), [], 'the child outlived its launcher');
  });
});

describe('through npm, SIGTERM to npm itself stops the gateway', () => {
  // A working directory of its own for `npm start` (which builds into ./dist): the project's files, linked.
  const machine = join(dir, 'machine');
  before(() => {
    cpSync(join(ROOT, MINI_CORPUS), join(machine, 'corpus'), { recursive: true });
    for (const name of ['package.json', 'node_modules', 'scripts', 'build', 'gateway', 'tsconfig.json']) symlinkSync(join(ROOT, name), join(machine, name));
  });

  const ways: Array<{ name: string; file: string; args: string[]; cwd: () => string; env: Record<string, string> }> = [
    { name: 'npm start', file: 'npm', args: ['start'], cwd: () => machine, env: { HRA_PORT: '0', HRA_LOG_LEVEL: 'silent' } },
    { name: 'npx hra serve', file: 'npx', args: ['--no-install', 'hra', ...serveArgs()], cwd: () => ROOT, env: {} },
    { name: 'npm run hra -- serve', file: 'npm', args: ['run', '--silent', 'hra', '--', ...serveArgs()], cwd: () => ROOT, env: {} },
  ];
  for (const way of ways) {
    it(`${way.name}: exits, and no process it started is left`, async () => {
      const { child, exited } = await startServing(way.file, way.args, way.cwd(), way.env);
      const below = descendantsOf(child.pid!);
      assert.ok(below.length >= 1, 'npm runs the command in a child');
      child.kill('SIGTERM');
      const exit = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))]);
      assert.notEqual(exit, 'still running', `${way.name} did not end on SIGTERM`);
      assert.deepEqual(await allGone(below, 5000), [], `${way.name} left processes running`);
    });
  }
});
