/**
 * The program files' rows, checked and dropped, must not outlive their file: at ten times the published
 * scale they were all promoted to the old generation, because a per-line wrapper the reader made was
 * pretenured once the evidence files' rows (which live on) had taught V8 so, and the heap of the links
 * check's load reached 614 MB before a full collection found 220 MB of it live (visitNdjson, BENCHMARKS.md).
 * Measured in a child with --expose-gc (program-rows-promotion.probe.ts): the old generation's growth over
 * 60,000 checked rows, with no full collection in between. Before the fix it grew by more than the rows'
 * text (74 MB for 67 MB); with it, by under 1 MB.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '../../support/temp-dir.ts';

const probe = fileURLToPath(new URL('./program-rows-promotion.probe.ts', import.meta.url));
const demoCorpus = fileURLToPath(new URL('../../../corpus', import.meta.url));

describe('checked program rows die young', () => {
  const dir = makeTempDir('hra-rows-die-young-');

  it('does not grow the old generation by the rows it checks once evidence rows were kept', () => {
    const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probe, dir, demoCorpus], { encoding: 'utf8' });
    const run = JSON.parse(output) as { kept: number; rows: number; problems: number; grewBytes: number; fullCollections: number; rowBytes: number };
    assert.equal(run.kept, 150_000);
    // Every generated row is valid, so each was checked whole and kept in its file's rows.
    assert.deepEqual({ rows: run.rows, problems: run.problems }, { rows: 60_000, problems: 0 });
    // A full collection in between would hide the growth, and the test could not fail.
    assert.equal(run.fullCollections, 0, 'a full collection ran while the rows were checked: the growth is not measured');
    assert.ok(run.grewBytes < run.rowBytes / 10, `the old generation grew by ${run.grewBytes} bytes over ${run.rowBytes} bytes of checked rows`);
  });
});
