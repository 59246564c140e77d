import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildTemporaryPath, sweepStaleBuildFiles } from '../../../build/snapshot/sweep-stale-build-files.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const dir = makeTempDir('hra-sweep-');
after(() => rmSync(dir, { recursive: true, force: true }));

describe('sweepStaleBuildFiles', () => {
  it('removes the temporary files of every kind a dead process left, and nothing else', () => {
    const out = mkdtempSync(join(dir, 'out-'));
    const stale = ['.building-4242-1.sqlite', '.building-4242-1.sqlite-journal', '.current-4242-2.sqlite', '.probe-4242-3.sqlite'];
    const kept = ['.building-7-1.sqlite', '.probe-7-3.sqlite', 'gm1-aa.sqlite', 'current.sqlite', '.probe-notes.txt'];
    for (const name of [...stale, ...kept]) writeFileSync(join(out, name), '');
    const removed = sweepStaleBuildFiles(out, (pid) => pid === 7);
    assert.deepEqual(removed.sort(), stale.sort());
    assert.deepEqual(readdirSync(out).sort(), kept.sort());
  });

  it('names a probe apart from a snapshot being written, so it is never taken for one', () => {
    const probe = buildTemporaryPath(dir, 'probe');
    assert.match(probe, new RegExp(`/\\.probe-${process.pid}-\\d+\\.sqlite$`));
    assert.equal(probe.includes('.building-'), false);
  });
});
