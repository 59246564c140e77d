import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type ArchiveIndexRow, openArchiveIndex } from '../../../build/archive/archive-index.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-archive-index-');

const row = (over: Partial<ArchiveIndexRow>): ArchiveIndexRow => ({
  recordId: '<urn:uuid:1>', type: 'response', targetUri: 'http://a.example/', warcDate: '2026-11-23T00:00:00.000Z',
  file: 'warc/2026/11/23/f.warc.gz', offset: 0, length: 10, payloadSha256: 'aa', refersTo: null, concurrentTo: null, ...over,
});

describe('openArchiveIndex', () => {
  it('creates the archive folder and index, inserts rows, and finds them by id, by digest (earliest response) and by file', () => {
    const archive = join(work, 'new', 'archive');
    const index = openArchiveIndex(archive);
    index.insert([
      row({}),
      row({ recordId: '<urn:uuid:2>', type: 'request', offset: 10, length: 5, payloadSha256: null, concurrentTo: '<urn:uuid:1>' }),
      row({ recordId: '<urn:uuid:3>', type: 'revisit', file: 'warc/2026/11/30/g.warc.gz', warcDate: '2026-11-30T00:00:00.000Z', refersTo: '<urn:uuid:1>' }),
      row({ recordId: '<urn:uuid:4>', file: 'warc/2026/11/30/g.warc.gz', offset: 10, warcDate: '2026-11-30T00:00:00.000Z' }),
    ]);
    assert.deepEqual(index.byRecordId('<urn:uuid:2>'), row({ recordId: '<urn:uuid:2>', type: 'request', offset: 10, length: 5, payloadSha256: null, concurrentTo: '<urn:uuid:1>' }));
    assert.equal(index.byRecordId('<urn:uuid:9>'), undefined);
    assert.equal(index.responseByPayloadSha256('aa')?.recordId, '<urn:uuid:1>');
    assert.equal(index.responseByPayloadSha256('bb'), undefined);
    assert.deepEqual(index.listFiles(), ['warc/2026/11/23/f.warc.gz', 'warc/2026/11/30/g.warc.gz']);
    assert.deepEqual(index.rowsOfFile('warc/2026/11/23/f.warc.gz').map((r) => r.recordId), ['<urn:uuid:1>', '<urn:uuid:2>']);
    assert.equal(index.indexedEnd('warc/2026/11/23/f.warc.gz'), 15);
    assert.equal(index.indexedEnd('warc/none.warc.gz'), 0);
    index.close();
    const again = openArchiveIndex(archive, { readonly: true });
    assert.equal(again.listFiles().length, 2, 'rows persist');
    assert.throws(() => again.insert([row({ recordId: '<urn:uuid:5>' })]), /readonly/);
    again.close();
  });

  it('refuses a duplicate record id, an unknown type, and opening read-only an archive that does not exist', () => {
    const index = openArchiveIndex(join(work, 'dup'));
    index.insert([row({})]);
    assert.throws(() => index.insert([row({})]), /UNIQUE/);
    assert.throws(() => index.insert([row({ recordId: '<urn:uuid:x>', type: 'warcinfo' as never })]), /CHECK/);
    index.close();
    assert.throws(() => openArchiveIndex(join(work, 'absent'), { readonly: true }));
  });
});
