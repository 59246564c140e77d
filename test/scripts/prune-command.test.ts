/** `hra prune`: old snapshots go with their sidecars; the newest, the current one and a served one stay. */
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, readFileSync, readlinkSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MINI_CORPUS } from '../support/start-test-gateway.ts';
import { lastJsonLine, lastLine, ROOT, runHra } from '../support/run-hra.ts';
import { serve, stopServe, type ServeProcess } from '../support/serve-process.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const dir = makeTempDir('hra-prune-');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Builds `count` revisions into `out`, oldest first, each with its modification times one hour apart. */
function buildRevisions(out: string, count: number): string[] {
  const corpus = join(dir, `corpus-${out.split('/').at(-1)}`);
  cpSync(join(ROOT, MINI_CORPUS), corpus, { recursive: true });
  const programs = join(corpus, 'programs/alpha.ndjson');
  const original = readFileSync(programs, 'utf8');
  const files: string[] = [];
  for (let index = 0; index < count; index++) {
    writeFileSync(programs, original.replace('Alpha Roof Repair Grant', `Alpha Roof Repair Grant ${index}`));
    const run = runHra(['build', '--corpus', corpus, '--out', out]);
    assert.equal(run.status, 0, run.stderr);
    const file = `${lastLine(run.stdout)}.sqlite`;
    const hour = (Date.now() - (count - index) * 3_600_000) / 1000;
    for (const name of [file, `${file}.sha256`, `${file}.segments`]) if (existsSync(join(out, name))) utimesSync(join(out, name), hour, hour);
    files.push(file);
  }
  return files;
}

function snapshotsIn(out: string): string[] {
  return readdirSync(out).filter((name) => name.startsWith('gm1-')).sort();
}

describe('hra prune', () => {
  let out = '';
  let revisions: string[] = [];
  let served: ServeProcess | undefined;

  before(() => {
    out = join(dir, 'out');
    revisions = buildRevisions(out, 4);
  });
  after(() => stopServe(served));

  it('refuses a bad --keep or --out on one line, removing nothing', () => {
    const before = snapshotsIn(out);
    for (const [args, message] of [
      [['--out', out, '--keep', '0'], /^hra: --keep "0": must be a whole number of at least 1$/],
      [['--out', out, '--keep', 'two'], /^hra: --keep "two": must be a whole number of at least 1$/],
      [['--out', join(dir, 'nowhere'), '--keep', '1'], /^hra: --out .*nowhere: build output folder not found$/],
    ] as const) {
      const run = runHra(['prune', ...args]);
      assert.equal(run.status, 1, run.stderr);
      assert.match(lastLine(run.stderr), message);
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    }
    assert.deepEqual(snapshotsIn(out), before);
  });

  it('--dry-run says what would go and removes nothing', () => {
    const before = snapshotsIn(out);
    const run = runHra(['prune', '--out', out, '--keep', '1', '--dry-run', '--json']);
    assert.equal(run.status, 0, run.stderr);
    const summary = lastJsonLine(run);
    assert.equal(summary.ok, true);
    assert.deepEqual(summary.removed, revisions.slice(0, 3).reverse());
    assert.deepEqual(snapshotsIn(out), before);
  });

  it('keeps the newest, what current.sqlite points to and the snapshot a gateway serves, each with its sidecars', async () => {
    // current.sqlite points at the second oldest; a gateway serves the oldest by its own name.
    const [oldest, second, third, newest] = revisions as [string, string, string, string];
    rmSync(join(out, 'current.sqlite'));
    const { symlinkSync } = await import('node:fs');
    symlinkSync(second, join(out, 'current.sqlite'));
    const keys = join(dir, 'keys.sqlite');
    assert.equal(runHra(['keys', 'create', '--keys', keys, '--tier', 'commercial', '--dataset', join(out, 'current.sqlite'), '--json']).status, 0);
    served = await serve(['--dataset', join(out, oldest), '--keys', keys, '--port', '0']);

    const run = runHra(['prune', '--out', out, '--keep', '1', '--json']);
    assert.equal(run.status, 0, run.stderr);
    const summary = lastJsonLine(run);
    assert.deepEqual(summary.removed, [third]);
    assert.deepEqual(summary.kept, [
      { file: newest, because: 'newest' }, { file: second, because: 'current' }, { file: oldest, because: 'open' },
    ]);
    const left = snapshotsIn(out);
    for (const file of [oldest, second, newest]) {
      for (const name of [file, `${file}.sha256`]) assert.ok(left.includes(name), `${name} stays`);
    }
    assert.equal(left.some((name) => name.startsWith(third)), false, `${third} and its sidecars are gone: ${left.join(', ')}`);
    assert.equal(readlinkSync(join(out, 'current.sqlite')), second);
    // The gateway still serves from its file.
    const health = await fetch(`${served.url}/api/dataset/health`);
    assert.equal(health.status, 200);

    // Once the gateway is gone, its snapshot is just old.
    await stopServe(served);
    served = undefined;
    const again = runHra(['prune', '--out', out, '--keep', '1']);
    assert.equal(again.status, 0, again.stderr);
    assert.match(lastLine(again.stdout), /^removed 1 snapshot \([\d.]+ MiB\), kept 2$/);
    assert.deepEqual(snapshotsIn(out).filter((name) => name.endsWith('.sqlite')), [second, newest].sort());
  });
});
