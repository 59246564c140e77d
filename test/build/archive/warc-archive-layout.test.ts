import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultArchiveDir, pidOfWarcFile, warcFilePath } from '../../../build/archive/warc-archive-layout.ts';

describe('defaultArchiveDir', () => {
  for (const [corpus, expected] of [['corpus', 'archive'], ['./corpus/', 'archive'], ['/srv/hra/corpus', '/srv/hra/archive'], ['a/b/corpus', 'a/b/archive']] as const) {
    it(`${corpus} -> ${expected}`, () => assert.equal(defaultArchiveDir(corpus), expected));
  }
});

describe('warcFilePath', () => {
  it('names a file by UTC day folder, start time, pid and a five-digit sequence', () => {
    const path = warcFilePath(new Date('2026-01-02T03:04:05.678Z'), 321, 7);
    assert.equal(path, 'warc/2026/01/02/hra-20260102030405-321-00007.warc.gz');
    assert.equal(pidOfWarcFile(path), 321);
    assert.equal(pidOfWarcFile(`${path}.open`), 321);
    assert.equal(pidOfWarcFile('warc/other.warc.gz'), undefined);
  });
});
