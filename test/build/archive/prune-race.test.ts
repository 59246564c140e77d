/**
 * Two `hra archive prune` runs started together on one archive, under a slowed disk (every fsync waits, so each
 * step of a prune stays open while the other runs): whichever order they fall in, one prunes and the other waits
 * or is refused on one line, and verify --archive passes after. Looped a bounded number of times.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openArchiveIndex } from '../../../build/archive/archive-index.ts';
import { verifyArchivedEvidence } from '../../../build/archive/verify-archived-evidence.ts';
import { archiveRun } from '../../support/evidence-archive-fixture.ts';
import { hraEnv, ROOT, TSX_NODE_ARGS, type HraRun } from '../../support/run-hra.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-prune-race-');
const ROUNDS = 3;
const week = (n: number) => new Date(Date.UTC(2026, 9, 5 + 7 * n, 6));

/** Four weekly runs, each its own file, every file holding both expired and kept records. */
async function archiveOfFourRuns(dir: string) {
  const archive = join(dir, 'archive');
  const corpus = join(dir, 'corpus');
  for (let n = 0; n < 4; n++) {
    await archiveRun(archive, corpus, week(n), [
      { url: 'http://same.test/program', body: '<p>Grants up to $5,000.</p>' },
      { url: `http://kept-${n}.test/program`, body: `<p>Only in week ${n}</p>` },
      { url: 'http://moving.test/program', body: `<p>Week ${n}</p>`, hops: 2 },
    ], 6000 + n);
  }
  return { archive, corpus };
}

function slowPrune(archive: string, corpus: string): Promise<HraRun> {
  const args = [...TSX_NODE_ARGS, '--import', join(ROOT, 'test/support/slow-disk.ts'), join(ROOT, 'scripts/hra.ts'),
    'archive', 'prune', '--archive', archive, '--corpus', corpus, '--keep-weeks', '0'];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: hraEnv({ HRA_TEST_SLOW_FSYNC_MS: '150' }) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr })));
}

describe('archive prune beside archive prune', () => {
  it(`never leaves a verify failure (${ROUNDS} rounds under a slowed disk)`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const { archive, corpus } = await archiveOfFourRuns(join(work, `round-${round}`));
      const runs = await Promise.all([slowPrune(archive, corpus), slowPrune(archive, corpus)]);
      for (const run of runs) {
        if (run.status === 0) continue;
        assert.equal(run.status, 1, run.stderr);
        assert.match(run.stderr.trim(), /^hra: --archive .*: archive prune \(process \d+\) holds the archive's lock \(archive\.lock\), still after \d+ ms; no archive prune was done; run it once that has finished$/, `round ${round}`);
      }
      assert.ok(runs.some((run) => run.status === 0), `round ${round}: one prune ran\n${runs.map((run) => run.stderr).join('\n')}`);
      const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
      assert.deepEqual(report.problems, [], `round ${round}`);
      const index = openArchiveIndex(archive, { readonly: true });
      try {
        for (const file of index.listFiles()) assert.ok(existsSync(join(archive, file)), `round ${round}: the index names ${file}, which is gone`);
      } finally {
        index.close();
      }
    }
  });
});
