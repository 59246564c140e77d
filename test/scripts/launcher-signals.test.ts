/**
 * Signals end the command, through every way of starting it: the launcher (scripts/hra-bin.js) passes SIGINT, SIGTERM and SIGHUP to the child doing the work and ends as it does; SIGKILL of the
 * launcher leaves no child running; `npm start`, `npx hra serve` and `npm run hra -- serve` stop on SIGTERM
 * sent to npm itself, leaving no process behind (issues 41 and 42).
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { constants } from 'node:os';
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
let synths = 0;

/**
 * The launcher running a build-side command, which without the heap cap in node's own flags always runs in a
 * child, compiled or not: a synth of the published scale, tens of seconds of work. Resolves once the child
 * has run for a second.
 */
async function startLaunched(): Promise<{ child: ChildProcess; worker: number; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }> {
  const child = spawn(process.execPath, [launcher, 'synth', '--seed', '1', '--scale', '1', '--out', join(dir, `synth-${++synths}`)], { cwd: ROOT, env: hraEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  started.push(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 60_000;
  let children = descendantsOf(child.pid!, 1);
  while (children.length === 0 && Date.now() < deadline && child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    children = descendantsOf(child.pid!, 1);
  }
  assert.equal(children.length, 1, 'the work runs in one child');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.equal(child.exitCode, null, 'still at work');
  return { child, worker: children[0]!, exited };
}

describe('the launcher', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`passes ${signal} to its child and ends as it does, leaving nothing running`, async () => {
      const { child, worker, exited } = await startLaunched();
      const below = [worker, ...descendantsOf(worker)];
      child.kill(signal);
      const exit = await exited;
      // synth stops on the signal's default action, or on its own handler with 128 + the signal's number.
      assert.ok(exit.signal === signal || exit.code === 128 + constants.signals[signal], JSON.stringify(exit));
      assert.deepEqual(await allGone(below, 5000), []);
    });
  }

  it('SIGKILL of the launcher leaves no child running', async () => {
    const { child, worker, exited } = await startLaunched();
    child.kill('SIGKILL');
    await exited;
    assert.deepEqual(await allGone([worker], 15_000), [], 'the child outlived its launcher');
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
