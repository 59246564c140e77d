import * as assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { advanceAsOf } from '../../../build/corpus/advance-as-of.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const dir = makeTempDir('hra-as-of-');
after(() => rmSync(dir, { recursive: true, force: true }));

const MANIFEST = '{\n  "dataset": "d",\n  "asOf": "2026-11-16",\n  "nested": {"asOf": "keep"},\n  "note": "spacing  kept"\n}\n';

function corpusWith(text: string): string {
  const root = mkdtempSync(join(dir, 'corpus-'));
  writeFileSync(join(root, 'manifest.json'), text);
  return root;
}

describe('advanceAsOf', () => {
  it('moves asOf forward and changes no other byte', () => {
    const root = corpusWith(MANIFEST);
    chmodSync(join(root, 'manifest.json'), 0o640);
    assert.deepEqual(advanceAsOf(root, '2026-11-28'), { from: '2026-11-16', to: '2026-11-28' });
    assert.equal(readFileSync(join(root, 'manifest.json'), 'utf8'), MANIFEST.replace('"asOf": "2026-11-16"', '"asOf": "2026-11-28"'));
    assert.equal(statSync(join(root, 'manifest.json')).mode & 0o777, 0o640, 'the file keeps its mode');
    assert.deepEqual(readdirSync(root), ['manifest.json'], 'no temporary file is left');
  });

  it('never moves asOf back, and writes nothing when it stays', () => {
    for (const date of ['2026-11-16', '2026-11-01']) {
      const root = corpusWith(MANIFEST);
      const before = statSync(join(root, 'manifest.json')).ino;
      assert.equal(advanceAsOf(root, date), undefined);
      assert.equal(readFileSync(join(root, 'manifest.json'), 'utf8'), MANIFEST);
      assert.equal(statSync(join(root, 'manifest.json')).ino, before);
    }
  });
});
