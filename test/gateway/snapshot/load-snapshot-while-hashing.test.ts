/**
 * loadSnapshot's `whileHashing`: start-up builds its stores and request listener while the snapshot's
 * content is hashed (start-gateway.ts). The callback gets the opened file before its digests are compared,
 * and a file refused by that comparison is closed after it, so nothing built on it can read it.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { loadSnapshot } from '../../../gateway/snapshot/load-snapshot.ts';
import type { Snapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { publishSegmentedSnapshot, type SegmentedSnapshot } from '../../support/segmented-snapshot.ts';

const SEGMENT = 16 * 1024;

/** Loads `file`, recording each whileHashing call and whether the load had settled by then. */
async function loadRecording(file: string, options: { inlineHashBytes?: number; hashWorkers?: number }) {
  const calls: Array<{ snapshot: Snapshot; settled: boolean }> = [];
  let settled = false;
  const load = loadSnapshot(file, { ...options, whileHashing: (snapshot) => calls.push({ snapshot, settled }) });
  const outcome = await load.then((loaded) => ({ loaded }), (error: unknown) => ({ error }));
  settled = true;
  return { calls, outcome };
}

describe('loadSnapshot whileHashing', () => {
  let published: SegmentedSnapshot;
  before(() => {
    published = publishSegmentedSnapshot(SEGMENT);
  });
  after(() => published.remove());

  for (const [how, options] of [['on workers, by segment', { inlineHashBytes: 0, hashWorkers: 2 }], ['whole, on the calling thread', {}]] as const) {
    it(`is called once, before the load settles, with the snapshot it then returns (hashed ${how})`, async () => {
      const { calls, outcome } = await loadRecording(published.copy(), options);
      assert.ok('loaded' in outcome, String((outcome as { error?: unknown }).error));
      assert.equal(calls.length, 1);
      assert.equal(calls[0]?.settled, false);
      assert.equal(calls[0]?.snapshot, outcome.loaded.snapshot);
      outcome.loaded.snapshot.close();
    });

    it(`is called before a flipped byte is found, and the snapshot it got is closed by the refusal (hashed ${how})`, async () => {
      const file = published.copy();
      const bytes = readFileSync(file);
      bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0x01;
      writeFileSync(file, bytes);
      const { calls, outcome } = await loadRecording(file, options);
      assert.ok('error' in outcome, 'the damaged file was loaded');
      assert.match(String(outcome.error), /refused: content: /);
      assert.equal(calls.length, 1);
      const snapshot = calls[0]?.snapshot;
      assert.ok(snapshot !== undefined);
      // Its database is closed: nothing built on it while hashing can read the refused file.
      assert.throws(() => snapshot.cities(), /not open/);
    });
  }
});
