/**
 * `hra build` writes nothing that stays when it fails or is interrupted (operator contract: "a failed build
 * writes nothing and leaves current.sqlite untouched"): a refused final rename, SIGINT or SIGTERM mid-way,
 * and the leftovers of a build killed outright, which the next build sweeps.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MINI_CORPUS } from '../support/start-test-gateway.ts';
import { ROOT, runHra, spawnHra, stderrLines } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const dir = makeTempDir('hra-build-command-');
after(() => rmSync(dir, { recursive: true, force: true }));
/** A corpus large enough that writing its snapshot takes most of a second: time to interrupt it. */
const large = join(dir, 'large-corpus');
let outs = 0;

/** A fresh output directory holding a published build of the mini corpus. */
function publishedOut(): { out: string; listing: string[]; current: string } {
  outs += 1;
  const out = join(dir, `out-${outs}`);
  const run = runHra(['build', '--corpus', MINI_CORPUS, '--out', out]);
  assert.equal(run.status, 0, run.stderr);
  return { out, listing: readdirSync(out).sort(), current: readlinkSync(join(out, 'current.sqlite')) };
}

/** Starts a build of the large corpus into `out` and sends `signal` once its temporary snapshot exists. */
async function interruptBuild(out: string, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child: ChildProcess = spawnHra(['build', '--corpus', large, '--out', out]);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, killedBy) => resolve({ code, signal: killedBy })));
  const mine = `.building-${child.pid}-`;
  const deadline = Date.now() + 60_000;
  let sent = false;
  while (!sent && Date.now() < deadline && child.exitCode === null) {
    if (readdirSync(out).some((name) => name.startsWith(mine))) {
      child.kill(signal);
      sent = true;
    } else {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  const ended = await exited;
  assert.ok(sent, `the build wrote ${mine}* before ending; stderr:\n${stderr}`);
  return { ...ended, stderr };
}

before(() => {
  const run = runHra(['synth', '--seed', '7', '--scale', '0.1', '--out', large]);
  assert.equal(run.status, 0, run.stderr);
});

describe('hra build leaves nothing behind', () => {
  it('when the final rename fails (a directory already holds the revision\'s name): no new file, current untouched', () => {
    const { out, listing, current } = publishedOut();
    const corpus = join(dir, 'changed-corpus');
    cpSync(join(ROOT, MINI_CORPUS), corpus, { recursive: true });
    writeFileSync(join(corpus, 'cities.ndjson'), readFileSync(join(corpus, 'cities.ndjson'), 'utf8').replace('"Beta Town"', '"Beta Towne"'));
    const revision = runHra(['digest', '--corpus', corpus]).stdout.trim();
    assert.match(revision, /^gm1-/);
    mkdirSync(join(out, `${revision}.sqlite`));
    const before = readdirSync(out).sort();

    const run = runHra(['build', '--corpus', corpus, '--out', out]);
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.match(stderrLines(run).at(-1) ?? '', new RegExp(`^hra: --out \\S+: build failed and published nothing: EISDIR: .*${revision}\\.sqlite`));
    assert.deepEqual(readdirSync(out).sort(), before, 'no checksum, segments or temporary file stays');
    assert.deepEqual(before, [...listing, `${revision}.sqlite`].sort());
    assert.equal(readlinkSync(join(out, 'current.sqlite')), current);
  });

  it('when the corpus is invalid: the output folders it would have created are not left behind', () => {
    const corpus = join(dir, 'invalid-corpus');
    cpSync(join(ROOT, MINI_CORPUS), corpus, { recursive: true });
    writeFileSync(join(corpus, 'cities.ndjson'), '{"not": "a city"}\n');
    const fresh = join(dir, 'fresh-out');
    const run = runHra(['build', '--corpus', corpus, '--out', join(fresh, 'nested')]);
    assert.equal(run.status, 1);
    assert.match(stderrLines(run).at(-1) ?? '', /^hra: corpus is invalid: /);
    assert.equal(existsSync(fresh), false);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`when interrupted by ${signal} mid-way: exit 128+n, one line saying so, nothing new, current untouched`, async () => {
      const { out, listing, current } = publishedOut();
      const ended = await interruptBuild(out, signal);
      assert.equal(ended.code, signal === 'SIGINT' ? 130 : 143, ended.stderr);
      assert.match(ended.stderr.trimEnd().split('\n').at(-1) ?? '', new RegExp(`^hra: build interrupted by ${signal}; its temporary files were removed$`));
      assert.deepEqual(readdirSync(out).sort(), listing);
      assert.equal(readlinkSync(join(out, 'current.sqlite')), current);
    });
  }

  it('after a build killed outright (SIGKILL), the next build removes what it left', async () => {
    const { out, listing, current } = publishedOut();
    const killed = await interruptBuild(out, 'SIGKILL');
    assert.equal(killed.signal, 'SIGKILL');
    const leftovers = readdirSync(out).filter((name) => !listing.includes(name));
    assert.ok(leftovers.length > 0 && leftovers.every((name) => name.startsWith('.building-')), `leftovers: ${leftovers.join(', ')}`);
    assert.equal(readlinkSync(join(out, 'current.sqlite')), current, 'a killed build does not touch current.sqlite');

    const next = runHra(['build', '--corpus', MINI_CORPUS, '--out', out]);
    assert.equal(next.status, 0, next.stderr);
    assert.match(next.stderr, /build: removed .* left by a killed build: \.building-/);
    assert.deepEqual(readdirSync(out).sort(), listing);
    assert.equal(readlinkSync(join(out, 'current.sqlite')), current);
  });
});
