import * as assert from 'node:assert/strict';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { type ArchiveIndex, openArchiveIndex } from '../../../build/archive/archive-index.ts';
import { type ArchivedExchange, openArchiveWriter } from '../../../build/archive/open-archive-writer.ts';
import { ArchiveRecordError, readArchivedRecord } from '../../../build/archive/read-archived-record.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-archive-read-');
let dirs = 0;
const page = '<html><p>Fee: $25</p></html>\n';

async function archiveOne(): Promise<{ archive: string; done: ArchivedExchange; index: ArchiveIndex }> {
  const archive = join(work, `a${++dirs}`);
  const writer = await openArchiveWriter({ archiveDir: archive });
  const done = await writer.writeExchange({
    targetUri: 'http://a.example/fees',
    date: new Date('2026-11-23T00:00:00Z'),
    ipAddress: '127.0.0.1',
    request: { method: 'GET', headers: [['Accept', 'text/html']] },
    response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'text/html'], ['X-Two', 'a'], ['X-Two', 'b']], payload: Buffer.from(page) },
  });
  await writer.close();
  return { archive, done, index: openArchiveIndex(archive) };
}

describe('readArchivedRecord', () => {
  it('reads a response: index row, WARC headers, HTTP status and headers, payload', async () => {
    const { archive, done, index } = await archiveOne();
    const read = await readArchivedRecord(archive, index, done.responseRecordId);
    assert.equal(read.row.type, 'response');
    assert.equal(read.httpStatus, 200);
    assert.equal(read.httpStatusLine, 'HTTP/1.1 200 OK');
    assert.deepEqual(read.httpHeaders.filter(([name]) => name === 'Content-Type'), [['Content-Type', 'text/html']]);
    assert.ok(read.warcHeaders.some(([name, value]) => name === 'WARC-IP-Address' && value === '127.0.0.1'));
    assert.equal(Buffer.from(read.payload).toString(), page);
    assert.equal(read.truncated, undefined);
    const request = await readArchivedRecord(archive, index, done.requestRecordId);
    assert.equal(request.row.concurrentTo, done.responseRecordId);
    assert.equal(request.httpStatusLine, 'GET /fees HTTP/1.1');
    assert.equal(request.httpStatus, undefined);
    index.close();
  });

  it('fails naming the file and record when the payload no longer hashes to its digest', async () => {
    const { archive, done, index } = await archiveOne();
    const [response, request] = index.rowsOfFile(done.file);
    const bytes = readFileSync(join(archive, done.file));
    const member = gunzipSync(bytes.subarray(response!.offset, response!.offset + response!.length));
    const edited = gzipSync(Buffer.from(member.toString('latin1').replace('Fee: $25', 'Fee: $99'), 'latin1'));
    // The file's warcinfo stays ahead of the edited member.
    writeFileSync(join(archive, done.file), Buffer.concat([bytes.subarray(0, response!.offset), edited, bytes.subarray(request!.offset)]));
    index.database.prepare('UPDATE records SET length = ? WHERE record_id = ?').run(edited.length, response!.recordId);
    index.database.prepare('UPDATE records SET offset = ? WHERE record_id = ?').run(response!.offset + edited.length, request!.recordId);
    await assert.rejects(readArchivedRecord(archive, index, done.responseRecordId), (error: Error) => {
      assert.ok(error instanceof ArchiveRecordError);
      assert.match(error.message, new RegExp(`^${done.file.replace(/\./g, '\\.')} record <urn:uuid:[0-9a-f-]+>: payload sha256 [0-9a-f]{64} does not match its digest ${done.payloadSha256}$`));
      return true;
    });
    index.close();
  });

  it('fails naming the file and record for a missing file, a file cut short, bytes that are not gzip, an unknown id', async () => {
    const { archive, done, index } = await archiveOne();
    const path = join(archive, done.file);
    const bytes = readFileSync(path);
    const at = index.byRecordId(done.responseRecordId)!.offset;
    renameSync(path, `${path}.moved`);
    await assert.rejects(readArchivedRecord(archive, index, done.responseRecordId), { message: `${done.file} record ${done.responseRecordId}: file is missing` });
    writeFileSync(path, bytes.subarray(0, at + 20));
    await assert.rejects(readArchivedRecord(archive, index, done.responseRecordId), { message: new RegExp(`^${done.file.replace(/\./g, '\\.')} record ${done.responseRecordId}: file ends at ${at + 20}, before the indexed end \\d+$`) });
    writeFileSync(path, Buffer.alloc(bytes.length, 0x41));
    await assert.rejects(readArchivedRecord(archive, index, done.responseRecordId), { message: new RegExp(`record ${done.responseRecordId}: not a gzip member at offset ${at}`) });
    unlinkSync(path);
    await assert.rejects(readArchivedRecord(archive, index, '<urn:uuid:nope>'), { message: 'record <urn:uuid:nope>: not in the archive index' });
    index.close();
  });

  it('refuses an index row that points at another record', async () => {
    const { archive, done, index } = await archiveOne();
    const at = index.byRecordId(done.responseRecordId)!.offset;
    index.database.prepare('UPDATE records SET offset = ?, length = (SELECT length FROM records WHERE record_id = ?) WHERE record_id = ?')
      .run(at, done.responseRecordId, done.requestRecordId);
    await assert.rejects(readArchivedRecord(archive, index, done.requestRecordId), { message: new RegExp(`record ${done.requestRecordId}: offset ${at} holds record ${done.responseRecordId}`) });
    index.close();
  });
});
