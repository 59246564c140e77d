import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTemplate, tempDir } from './synth-test-support.ts';

const ROOT = join(import.meta.dirname, '../../..');
const template = loadTemplate();

function hra(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('hra synth', { skip: template.skip }, () => {
  it('writes a corpus and prints a JSON summary as the last stdout line', () => {
    const out = join(tempDir('cli'), 'out');
    const run = hra('synth', '--seed', '1', '--scale', '0.01', '--out', out, '--json');
    assert.equal(run.status, 0, run.stderr);
    const summary = JSON.parse(lines(run.stdout).at(-1) ?? '') as Record<string, unknown>;
    assert.equal(summary.ok, true);
    assert.equal(summary.seed, 1);
    assert.equal(summary.scale, 0.01);
    for (const key of ['liveCities', 'liveRows', 'distinctNames', 'locallyUniqueNames', 'distinctUrls', 'files', 'bytes']) {
      assert.ok(typeof summary[key] === 'number' && (summary[key] as number) > 0, key);
    }
    assert.ok(readdirSync(out).includes('manifest.json'));
    const check = hra('validate', '--corpus', out, '--json');
    assert.equal(check.status, 0, check.stderr);
  });

  const refusals: Array<[string, (dir: string) => string[]]> = [
    ['a non-empty --out', (dir) => {
      writeFileSync(join(dir, 'keep.txt'), 'x');
      return ['--seed', '1', '--scale', '0.01', '--out', dir];
    }],
    ['a scale that is not positive', (dir) => ['--seed', '1', '--scale', '0', '--out', join(dir, 'out')]],
    ['a seed that is not an integer', (dir) => ['--seed', 'abc', '--out', join(dir, 'out')]],
  ];
  for (const [name, argsFor] of refusals) {
    it(`refuses ${name} with one stderr line and a non-zero exit`, () => {
      const run = hra('synth', ...argsFor(tempDir('refuse')));
      assert.notEqual(run.status, 0);
      assert.equal(lines(run.stderr).length, 1, run.stderr);
      assert.match(run.stderr, /^hra: --(out|scale|seed) /);
      assert.equal(run.stdout, '');
    });
  }
});
