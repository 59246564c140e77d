/**
 * `npm run bench -- --startup` (issue 25, goal 3): the option, its section, and the report's ratio to
 * openssl taken round by round; measureStartup against real spawned commands.
 */
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseBenchOptions, sectionId } from '../../../scripts/bench/bench-options.ts';
import { measureStartup } from '../../../scripts/bench/measure-startup.ts';
import { renderStartupReport } from '../../../scripts/bench/render-startup.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

describe('--startup', () => {
  it('runs the start-up phase alone, in its own section per scale, mode and comparison', () => {
    const options = parseBenchOptions(['--startup', '--scale', '10', '--quick']);
    assert.equal(options.startup, true);
    assert.equal(sectionId(options), 'startup-scale-10-quick');
    assert.equal(sectionId(parseBenchOptions(['--startup', '--compare', 'main'])), 'startup-compare-scale-1');
    assert.equal(parseBenchOptions([]).startup, false);
  });

  it('cannot be combined with --links', () => {
    assert.throws(() => parseBenchOptions(['--startup', '--links']), /--links and --startup each run one phase alone/);
  });
});

describe('measureStartup and renderStartupReport', () => {
  it('times each command round by round and divides it by the reference of the same round', async () => {
    const work = makeTempDir('hra-startup-bench-');
    try {
      const figures = await measureStartup({
        subjects: [
          { kind: 'command', label: 'slow', command: process.execPath, args: ['-e', 'setTimeout(() => {}, 300)'], cwd: work },
          { kind: 'command', label: 'reference', command: process.execPath, args: ['-e', '0'], cwd: work },
        ],
        reference: 'reference',
        probePath: '/',
        rounds: 2,
        work,
      }, () => {});
      assert.equal(figures.times.slow?.length, 2);
      assert.ok((figures.times.slow?.[0] ?? 0) >= 300);
      assert.deepEqual(figures.ratios.reference, [1, 1]);
      assert.deepEqual(figures.ratios.slow, figures.times.slow?.map((ms, index) => ms / (figures.times.reference?.[index] ?? Number.NaN)));
      const text = renderStartupReport({
        command: 'npm run bench -- --startup', date: '2026-11-26 07:00 UTC', machine: 'test machine', rows: 1, revision: 'gm1-0123456789abcdef', figures, target: 'slow',
        loadAverage: { start: 1, end: 1 }, notes: [], elapsedSeconds: 1,
      });
      assert.match(text, /\| slow \| \d+ \| \d+–\d+ \| \d+\.\d\d \(\d+\.\d\d–\d+\.\d\d\) \|/);
      assert.match(text, /Target \(issue 25, goal 3\), slow: ≤ 1\.3 × reference: missed by/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('refuses a reference that is not among the subjects', async () => {
    await assert.rejects(measureStartup({ subjects: [], reference: 'openssl', probePath: '/', rounds: 1, work: tmpdir() }, () => {}), /start-up reference openssl is not among/);
  });
});
