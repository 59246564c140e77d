/**
 * `links check` must not hold through its start-up what no step of the run reads: at ten times the published
 * scale the change events and the program-id sets held 40 MiB each through its peak (BENCHMARKS.md). After
 * loadLinkRunInputs returns, while its inputs are still held, a full collection must reclaim them.
 */
import * as assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, it } from 'node:test';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import type { Corpus } from '../../build/corpus/corpus-types.ts';
import { loadLinkRunInputs } from '../../scripts/commands/load-link-run-inputs.ts';

const demoCorpus = fileURLToPath(new URL('../../corpus', import.meta.url));

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

describe('loadLinkRunInputs', () => {
  it('lets the change events, program ids, reports and vocabularies go while the run inputs are held', async () => {
    const dropped: Record<string, WeakRef<object>> = {};
    const kept: Record<string, WeakRef<object>> = {};
    const inputs = loadLinkRunInputs(demoCorpus, (dir) => {
      const corpus: Corpus = loadCorpus(dir);
      assert.ok(corpus.changes.length > 0 && corpus.programIds.size > 0, 'the demo corpus has no change events or programs: nothing to see dropped');
      for (const name of ['changes', 'programIds', 'reports', 'vocabularies'] as const) dropped[name] = new WeakRef(corpus[name]);
      for (const name of ['linkChecks', 'sourceReviews', 'corrections', 'programFiles'] as const) kept[name] = new WeakRef(corpus[name]);
      return corpus;
    });
    // A WeakRef holds its target until the job that made it ends.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    const alive = Object.entries(dropped).filter(([, ref]) => ref.deref() !== undefined).map(([name]) => name);
    assert.deepEqual(alive, []);
    // The collection did run over what the run does hold: those stay, and are the loaded ones.
    assert.equal(kept.linkChecks?.deref(), inputs.linkChecks);
    assert.equal(kept.programFiles?.deref(), inputs.programFiles);
    assert.deepEqual(Object.keys(inputs).sort(), ['adjacentRules', 'cities', 'corrections', 'linkChecks', 'manifest', 'national', 'programFiles', 'quarantine', 'quoteChecks', 'root', 'sourceReviews']);
  });
});
