import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ARCHIVE_INDEX_SCHEMA_VERSION, ArchiveIndexSchemaError, type ArchiveIndexRow, encodedRecordId, openArchiveIndex, readOlderSchemaRows } from '../../../build/archive/archive-index.ts';
import { writeSecondSchemaIndex } from '../../support/second-schema-index.ts';
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

  it('stores a hex digest as its 32 bytes and any other as written, and reads both back as written, also through the records view', () => {
    const index = openArchiveIndex(join(work, 'digests'));
    const hex = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    index.insert([row({ payloadSha256: hex }), row({ recordId: '<urn:uuid:2>', payloadSha256: 'E3B0' })]);
    const stored = index.database.prepare('SELECT record_id, typeof(payload_sha256) AS kind, length(payload_sha256) AS bytes FROM index_rows ORDER BY record_id').all();
    assert.deepEqual(stored, [{ record_id: '<urn:uuid:1>', kind: 'blob', bytes: 32 }, { record_id: '<urn:uuid:2>', kind: 'text', bytes: 4 }]);
    assert.equal(index.byRecordId('<urn:uuid:1>')?.payloadSha256, hex);
    assert.equal(index.responseByPayloadSha256(hex)?.recordId, '<urn:uuid:1>');
    assert.equal(index.responseByPayloadSha256('E3B0')?.recordId, '<urn:uuid:2>');
    // An edit through the view (as prune moves a record) keeps the columns it does not set.
    index.database.prepare('UPDATE records SET file = ?, offset = ? WHERE record_id = ?').run('warc/2026/12/01/h.warc.gz', 7, '<urn:uuid:1>');
    assert.deepEqual(index.byRecordId('<urn:uuid:1>'), row({ payloadSha256: hex, file: 'warc/2026/12/01/h.warc.gz', offset: 7 }));
    index.database.prepare('DELETE FROM records WHERE file = ?').run('warc/2026/12/01/h.warc.gz');
    assert.deepEqual(index.listFiles(), ['warc/2026/11/23/f.warc.gz'], 'a file no row names any more is not listed');
    assert.equal(index.database.pragma('user_version', { simple: true }), ARCHIVE_INDEX_SCHEMA_VERSION);
    index.close();
  });

  it('refuses an index of the first schema, naming hra archive reindex, and leaves it as it was; readOlderSchemaRows reads its rows', () => {
    const archive = join(work, 'first-schema');
    mkdirSync(archive, { recursive: true });
    const first = new Database(join(archive, 'index.sqlite'));
    first.exec(`CREATE TABLE records (record_id TEXT PRIMARY KEY, type TEXT NOT NULL, target_uri TEXT NOT NULL, warc_date TEXT NOT NULL,
      file TEXT NOT NULL, offset INTEGER NOT NULL, length INTEGER NOT NULL, payload_sha256 TEXT, refers_to TEXT, concurrent_to TEXT)`);
    first.prepare(`INSERT INTO records VALUES ('<urn:uuid:1>', 'response', 'http://a.example/', '2026-11-23T00:00:00.000Z', 'warc/2026/11/23/f.warc.gz', 0, 10, 'aa', NULL, NULL)`).run();
    first.close();
    for (const readonly of [false, true]) {
      assert.throws(() => openArchiveIndex(archive, { readonly }), (error: unknown) => error instanceof ArchiveIndexSchemaError && error.schema === 'first'
        && /index\.sqlite: an index of the first schema .*hra archive reindex --archive/.test(error.message));
    }
    const after = new Database(join(archive, 'index.sqlite'), { readonly: true });
    assert.deepEqual(after.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all(), ['records'], 'nothing was added to it');
    after.close();
    assert.deepEqual(readOlderSchemaRows(join(archive, 'index.sqlite')), [row({})]);
  });

  it('refuses an index of the second schema (ids as text), naming hra archive reindex, and leaves it as it was; readOlderSchemaRows reads its rows', () => {
    const archive = join(work, 'second-schema');
    mkdirSync(archive, { recursive: true });
    const rows = [row({ recordId: UUID_A, payloadSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' }), row({ recordId: UUID_B, type: 'request', offset: 10, payloadSha256: null, concurrentTo: UUID_A })];
    writeSecondSchemaIndex(join(archive, 'index.sqlite'), rows);
    for (const readonly of [false, true]) {
      assert.throws(() => openArchiveIndex(archive, { readonly }), (error: unknown) => error instanceof ArchiveIndexSchemaError && error.schema === 'older'
        && /index\.sqlite: an index of schema 2 \(record ids as text\); rebuild it with hra archive reindex --archive/.test(error.message));
    }
    const after = new Database(join(archive, 'index.sqlite'), { readonly: true });
    assert.equal(after.pragma('user_version', { simple: true }), 2, 'nothing was changed in it');
    assert.equal(after.prepare('SELECT typeof(record_id) FROM index_rows LIMIT 1').pluck().get(), 'text');
    after.close();
    assert.deepEqual(readOlderSchemaRows(join(archive, 'index.sqlite')), rows);
  });

  it('stores a record id of the writer\'s form, and the ids a row refers to, as 16 bytes, reading them back as written, also through the records view', () => {
    const index = openArchiveIndex(join(work, 'ids'));
    index.insert([
      row({ recordId: UUID_A }),
      row({ recordId: UUID_B, type: 'request', offset: 10, payloadSha256: null, concurrentTo: UUID_A }),
      row({ recordId: UUID_C, type: 'revisit', offset: 20, refersTo: UUID_A }),
      // Upper case, or not a UUID: kept as written, so that it reads back the same.
      row({ recordId: UUID_A.toUpperCase(), offset: 30, refersTo: '<urn:uuid:2>' }),
    ]);
    const stored = index.database.prepare(`SELECT typeof(record_id) AS id, length(record_id) AS bytes, typeof(refers_to) AS refers, typeof(concurrent_to) AS concurrent
      FROM index_rows ORDER BY offset`).all();
    assert.deepEqual(stored, [
      { id: 'blob', bytes: 16, refers: 'null', concurrent: 'null' },
      { id: 'blob', bytes: 16, refers: 'null', concurrent: 'blob' },
      { id: 'blob', bytes: 16, refers: 'blob', concurrent: 'null' },
      { id: 'text', bytes: UUID_A.length, refers: 'text', concurrent: 'null' },
    ]);
    assert.deepEqual(index.byRecordId(UUID_B), row({ recordId: UUID_B, type: 'request', offset: 10, payloadSha256: null, concurrentTo: UUID_A }));
    assert.equal(index.byRecordId(UUID_A.toUpperCase())?.refersTo, '<urn:uuid:2>');
    assert.deepEqual(index.database.prepare('SELECT record_id, refers_to, concurrent_to FROM records ORDER BY offset').raw().all(), [
      [UUID_A, null, null], [UUID_B, null, UUID_A], [UUID_C, UUID_A, null], [UUID_A.toUpperCase(), '<urn:uuid:2>', null],
    ]);
    // Through the view, as prune moves a record, and a join on the stored ids as the SQL readers make it.
    index.database.prepare('UPDATE records SET offset = ? WHERE record_id = ?').run(40, UUID_C);
    assert.deepEqual(index.byRecordId(UUID_C), row({ recordId: UUID_C, type: 'revisit', offset: 40, refersTo: UUID_A }));
    assert.deepEqual(index.database.prepare(`SELECT t.record_id FROM records r JOIN records t ON t.record_key = r.refers_key WHERE r.record_key = ${encodedRecordId('@id')}`).pluck().all({ id: UUID_C }), [UUID_A]);
    index.close();
  });
});

const UUID_A = '<urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e>';
const UUID_B = '<urn:uuid:7c9e6679-7425-40de-944b-e07fc1f90ae7>';
const UUID_C = '<urn:uuid:e1a0c3f2-5b6d-4e8f-9a0b-1c2d3e4f5a6b>';

