/**
 * `npm start` (scripts/start.ts), run from a scratch directory holding a copy of the mini corpus: on a fresh
 * machine it builds, creates the key store (saying so) and issues working demo keys, the trial one only for
 * live cities; an ordinary failure ends with the same one `hra:` line as `hra serve`, never a stack trace.
 */
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { buildAndPublish, type PublishedSnapshot } from '../../build/snapshot/publish-snapshot.ts';
import { copyCorpusWith } from '../support/copy-corpus-with.ts';
import { ROOT, runHra, spawnHra, stderrLines, waitForListening, type HraRun } from '../support/run-hra.ts';
import { buildTestSnapshot, MINI_CORPUS } from '../support/start-test-gateway.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const scratch = makeTempDir('hra-start-');
after(() => rmSync(scratch, { recursive: true, force: true }));
let machines = 0;

/** A fresh working directory with `corpus/` (the mini corpus, optionally edited) and nothing else. */
function freshMachine(edit?: (corpus: string) => void): string {
  machines += 1;
  const cwd = join(scratch, `machine-${machines}`);
  cpSync(join(ROOT, MINI_CORPUS), join(cwd, 'corpus'), { recursive: true });
  edit?.(join(cwd, 'corpus'));
  return cwd;
}

/** Publishes, into `cwd/dist`, a revision of the mini corpus other than the one `cwd/corpus` builds to. */
function publishOtherRevision(cwd: string): PublishedSnapshot {
  const other = copyCorpusWith({ contact: 'https://elsewhere.mini-fixture.test/contact' });
  try {
    return buildAndPublish(loadCorpus(other), join(cwd, 'dist'));
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
}

function start(cwd: string, env: Record<string, string>): HraRun {
  return runHra([], { cwd, env, script: 'scripts/start.ts' });
}

/** Fails with exactly one `hra:` line, the last one, and no stack trace. */
function assertOneLineFailure(run: HraRun, message: RegExp): void {
  assert.equal(run.status, 1, run.stderr);
  const lines = stderrLines(run);
  assert.deepEqual(lines.filter((line) => line.startsWith('hra: ')), [lines.at(-1)], run.stderr);
  assert.match(lines.at(-1) ?? '', message);
  assert.ok(!lines.some((line) => /^\s+at |^Node\.js v|Error:/.test(line)), `no stack trace:\n${run.stderr}`);
}

describe('npm start', () => {
  it('on a fresh machine: builds, creates the key store, issues demo keys that work, serves', async () => {
    const cwd = freshMachine();
    const child = spawnHra([], { cwd, env: { HRA_PORT: '0', HRA_LOG_LEVEL: 'silent' }, script: 'scripts/start.ts' });
    try {
      const { url, stderr: readStderr } = await waitForListening(child);
      const stderr = readStderr();
      assert.match(stderr, new RegExp(`^created key store ${join(cwd, 'dist', 'keys.sqlite')}$`, 'm'));
      const trial = /^ {2}trial +(hra_t_\S+) +\(cities: alpha, beta\)$/m.exec(stderr)?.[1];
      const commercial = /^ {2}commercial (hra_c_\S+)$/m.exec(stderr)?.[1];
      assert.ok(trial && commercial, stderr);
      const asTrial = await fetch(`${url}/api/programs/alpha`, { headers: { 'X-Api-Key': trial } });
      assert.equal(asTrial.status, 200);
      const outOfScope = await fetch(`${url}/api/programs/gamma`, { headers: { 'X-Api-Key': trial } });
      assert.equal(outOfScope.status, 403);
      const asCommercial = await fetch(`${url}/api/programs/gamma`, { headers: { 'X-Api-Key': commercial } });
      assert.equal(asCommercial.status, 200);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });

  it('a bad HRA_PORT: one line, before anything is built', () => {
    const cwd = freshMachine();
    assertOneLineFailure(start(cwd, { HRA_PORT: 'abc' }), /^hra: HRA_PORT: port must be an integer from 0 to 65535, got "abc"$/);
    assert.equal(existsSync(join(cwd, 'dist')), false);
  });

  it('a port in use: one line naming it, before anything is built', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = busy.address() as AddressInfo;
      const cwd = freshMachine();
      assertOneLineFailure(start(cwd, { HRA_PORT: String(port) }), new RegExp(`^hra: HRA_PORT ${port}: already in use on 127\\.0\\.0\\.1$`));
      assert.equal(existsSync(join(cwd, 'dist')), false);
    } finally {
      busy.close();
    }
  });

  it('a port in use while another revision is published: dist/ untouched, current.sqlite not repointed', async () => {
    const cwd = freshMachine();
    const published = publishOtherRevision(cwd);
    const before = readdirSync(join(cwd, 'dist')).sort();
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = busy.address() as AddressInfo;
      assertOneLineFailure(start(cwd, { HRA_PORT: String(port) }), new RegExp(`^hra: HRA_PORT ${port}: already in use on 127\\.0\\.0\\.1$`));
    } finally {
      busy.close();
    }
    assert.equal(realpathSync(join(cwd, 'dist', 'current.sqlite')), realpathSync(published.file));
    assert.deepEqual(readdirSync(join(cwd, 'dist')).sort(), before);
  });

  it('another revision published: served as published, never repointed, and the command to publish the corpus named', async () => {
    const cwd = freshMachine();
    const published = publishOtherRevision(cwd);
    const child = spawnHra([], { cwd, env: { HRA_PORT: '0', HRA_LOG_LEVEL: 'silent' }, script: 'scripts/start.ts' });
    try {
      const { url, stderr } = await waitForListening(child);
      const response = await fetch(`${url}/api/sample`);
      await response.arrayBuffer();
      assert.equal(response.headers.get('x-dataset-revision'), published.revision);
      assert.equal(realpathSync(join(cwd, 'dist', 'current.sqlite')), realpathSync(published.file));
      assert.match(stderr(), new RegExp(`^start: serving the published revision ${published.revision} of dist/current\\.sqlite; the corpus would build to gm1-[0-9a-f]{64} .*hra -- build --corpus corpus --out dist`, 'm'));
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });

  it('a missing dataset: one line naming it, and nothing built or created', () => {
    const cwd = freshMachine();
    const missing = join(scratch, 'nowhere.sqlite');
    assertOneLineFailure(start(cwd, { HRA_DATASET: missing, HRA_PORT: '0' }), /^hra: HRA_DATASET \S+nowhere\.sqlite: snapshot file not found$/);
    assert.equal(existsSync(join(cwd, 'dist')), false);
  });

  it('a served dataset without the demo cities: one line, and no key issued', () => {
    const cwd = freshMachine();
    // The demo corpus's snapshot: its live cities are not the mini corpus's alpha and beta.
    const other = buildTestSnapshot('corpus');
    assertOneLineFailure(start(cwd, { HRA_DATASET: other, HRA_PORT: '0' }), /^hra: demo keys: city slug "alpha" is not a live city of HRA_DATASET \S+\.sqlite$/);
    const keys = new Database(join(cwd, 'dist', 'keys.sqlite'), { readonly: true });
    try {
      assert.equal(keys.prepare('SELECT count(*) FROM api_keys').pluck().get(), 0);
    } finally {
      keys.close();
    }
  });

  it('an invalid corpus: one line naming the file, line and field', () => {
    const cwd = freshMachine((corpus) => {
      const file = join(corpus, 'programs/alpha.ndjson');
      writeFileSync(file, `${readFileSync(file, 'utf8')}{"id": "bad"}\n`);
    });
    assertOneLineFailure(start(cwd, { HRA_PORT: '0' }), /^hra: corpus is invalid: corpus\/programs\/alpha\.ndjson:7 \$\.name: is required/);
  });
});
