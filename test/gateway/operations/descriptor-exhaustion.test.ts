/**
 * A real `hra serve` out of descriptors: a swap refused by EMFILE is tried again by itself once descriptors
 * are free (without SIGHUP), and a start under `ulimit -n 64` ends, if it fails, on one `hra:` line.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { pointCurrentAt } from '../../../build/snapshot/publish-snapshot.ts';
import { ROOT } from '../../support/run-hra.ts';
import { get, publishTwoRevisions, type TwoRevisions } from './serve-process.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `hra serve` (from the sources unless told) under `ulimit -n <limit>`, with its output collected. */
function serveUnderLimit(limit: number, args: readonly string[], entry: readonly string[] = ['--import', 'tsx', 'scripts/hra.ts']) {
  const child = spawn('bash', ['-c', `ulimit -n ${limit}; exec "$0" "$@"`, process.execPath, ...entry, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

async function until(what: string, condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    assert.ok(performance.now() < deadline, `${what} within ${timeoutMs} ms`);
    await sleep(20);
  }
}

describe('a swap refused for want of descriptors', () => {
  let revisions: TwoRevisions;
  before(async () => {
    revisions = await publishTwoRevisions();
  });
  after(() => revisions.remove());

  it('is tried again by itself and serves the new revision once descriptors are free', { timeout: 120_000 }, async () => {
    // No cap to speak of: the idle sockets below are meant to take every descriptor the process has.
    const serve = serveUnderLimit(128, ['--dataset', revisions.dataset, '--keys', revisions.keysFile, '--limits', revisions.limitsFile, '--max-connections', '1000000']);
    const sockets: Socket[] = [];
    try {
      await until('listening', () => /listening on /.test(serve.output.stdout) || serve.child.exitCode !== null, 90_000);
      const url = /listening on (http:\/\/\S+)/.exec(serve.output.stdout)?.[1] ?? '';
      assert.ok(url, serve.output.stderr);
      const agent = new Agent({ keepAlive: false });
      assert.equal((await get(`${url}/api/sample`, agent)).revision, revisions.a.revision);

      // Idle sockets until the gateway has no descriptor left, kept up while current.sqlite is repointed.
      const port = Number(new URL(url).port);
      const flood = setInterval(() => {
        for (let index = 0; index < 20; index++) {
          const socket = connect(port, '127.0.0.1');
          socket.on('error', () => undefined);
          sockets.push(socket);
        }
      }, 20);
      await sleep(500);
      pointCurrentAt(revisions.out, revisions.b.name);
      try {
        const refusedForDescriptors = () => serve.output.stderr.split('\n').some((line) => line.includes('new snapshot refused') && line.includes('EMFILE'));
        await until('a swap refused with EMFILE', refusedForDescriptors, 15_000);
      } finally {
        clearInterval(flood);
        for (const socket of sockets) socket.destroy();
      }
      // No SIGHUP, no new repoint: the gateway must come to B by itself.
      const started = performance.now();
      let revision: string | null = null;
      while (revision !== revisions.b.revision) {
        assert.ok(performance.now() - started < 20_000, `serving B within 20 s of the descriptors coming free; stderr:\n${serve.output.stderr.slice(-2_000)}`);
        await sleep(100);
        revision = await get(`${url}/api/sample`, agent).then((observed) => observed.revision, () => null);
      }
      // The log goes out through an asynchronous sink, so its line may reach us after the response does.
      const retried = /dataset repointed \(retry \d+\): serving revision/;
      await until('the retry logged', () => retried.test(serve.output.stderr), 10_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});

describe('a start under ulimit -n 64', () => {
  let revisions: TwoRevisions;
  let compiled = false;
  before(async () => {
    revisions = await publishTwoRevisions();
  });
  after(() => revisions.remove());

  for (const attempt of [1, 2, 3]) {
    it(`serves, or fails on one hra: line and no stack trace (attempt ${attempt})`, { timeout: 120_000 }, async () => {
      // The compiled CLI: without tsx's loader it loads its modules many at a time, and runs out under 64.
      if (!compiled) execFileSync('npm', ['run', '--silent', 'compile'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      compiled = true;
      const serve = serveUnderLimit(64, ['--dataset', revisions.dataset, '--keys', revisions.keysFile], ['dist/js/scripts/hra.js']);
      const outcome = await Promise.race([
        serve.exited.then((code) => ({ exited: true as const, code })),
        until('listening', () => /listening on /.test(serve.output.stdout), 30_000).then(() => ({ exited: false as const, code: null })),
      ]);
      if (!outcome.exited) {
        serve.child.kill('SIGTERM');
        await serve.exited;
        return;
      }
      const lines = serve.output.stderr.split('\n').filter((line) => line !== '');
      assert.notEqual(outcome.code, 0);
      assert.equal(lines.length, 1, `one line, got:\n${serve.output.stderr}`);
      assert.match(lines[0] ?? '', /^hra: cannot load hra: .*the open-file limit \(ulimit -n\) is 64/);
    });
  }
});

describe('a command other than serve under a low ulimit -n', () => {
  // Its action's modules load when it runs (loadModules): at these limits the loader runs out of descriptors
  // among them, and before they were marked that was 'unexpected failure', exit 70, with no word of the limit.
  for (const limit of [32, 36]) {
    it(`hra validate under ulimit -n ${limit} fails on the one load-failure line, exit 1`, { timeout: 120_000 }, () => {
      execFileSync('npm', ['run', '--silent', 'compile'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      const run = spawnSync('bash', ['-c', `ulimit -n ${limit}; exec "$0" "$@"`, process.execPath, 'dist/js/scripts/hra.js', 'validate', '--corpus', 'corpus'], { cwd: ROOT, encoding: 'utf8' });
      const lines = run.stderr.split('\n').filter((line) => line !== '');
      assert.equal(run.status, 1, run.stderr);
      assert.equal(lines.length, 1, `one line, got:\n${run.stderr}`);
      assert.match(lines[0] ?? '', new RegExp(`^hra: cannot load hra: EMFILE: .*: the open-file limit \\(ulimit -n\\) is ${limit}, too low to load hra`));
    });
  }
});
