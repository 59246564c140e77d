import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planSnapshotPrune, type PublishedFile } from '../../../build/snapshot/plan-snapshot-prune.ts';

const file = (letter: string, mtimeMs: number): PublishedFile => ({ name: `gm1-${letter.repeat(64)}.sqlite`, sidecars: [], mtimeMs, bytes: 10 });
const [a, b, c, d] = [file('a', 1), file('b', 2), file('c', 3), file('d', 4)];

describe('planSnapshotPrune', () => {
  const names = (files: readonly PublishedFile[]) => files.map((entry) => entry.name);
  const cases: Array<{ name: string; keep: number; current?: PublishedFile; open?: PublishedFile[]; removed: PublishedFile[] }> = [
    { name: 'keeps the newest by modification time', keep: 2, removed: [b, a] },
    { name: 'the current snapshot counts among the newest when it is one', keep: 2, current: d, removed: [b, a] },
    { name: 'an old current snapshot is kept besides the newest', keep: 1, current: a, removed: [c, b] },
    { name: 'a snapshot a process holds open is kept', keep: 1, open: [b], removed: [c, a] },
    { name: 'keeping more than there are removes nothing', keep: 9, removed: [] },
  ];
  for (const { name, keep, current, open = [], removed } of cases) {
    it(name, () => {
      const plan = planSnapshotPrune([a, c, d, b], keep, current?.name, (candidate) => open.some((entry) => entry.name === candidate));
      assert.deepEqual(names(plan.removed), names(removed));
      assert.equal(plan.kept.length + plan.removed.length, 4);
    });
  }

  it('orders snapshots of the same time by name, so every run plans alike', () => {
    const twins = [file('f', 5), file('e', 5)];
    assert.deepEqual(names(planSnapshotPrune(twins, 1, undefined, () => false).removed), [twins[0]!.name]);
  });
});
