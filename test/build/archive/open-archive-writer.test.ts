import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { openArchiveIndex } from '../../../build/archive/archive-index.ts';
import { type ArchiveExchange, openArchiveWriter } from '../../../build/archive/open-archive-writer.ts';
import { warcPayloadDigest } from '../../../build/archive/payload-digest.ts';
import { readArchivedRecord } from '../../../build/archive/read-archived-record.ts';
import { makeTempDir } from '../../support/temp-dir.ts';
import { nodeWarcPayload, readArchivedExchanges, readWithNodeWarc } from '../../support/read-with-node-warc.ts';
import { warcFiles } from '../../support/warc-files.ts';

const work = makeTempDir('hra-archive-writer-');
after(() => undefined);
let dirs = 0;
const freshArchive = (): string => join(work, `a${++dirs}`);
const at = new Date('2026-11-23T04:05:06.789Z');

function exchange(url: string, body: string, extra: Partial<ArchiveExchange['response']> = {}): ArchiveExchange {
  return {
    targetUri: url,
    date: at,
    ipAddress: '127.0.0.1',
    request: { method: 'GET', headers: [['User-Agent', 'hra-test'], ['Accept', '*/*']] },
    response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'text/html']], payload: Buffer.from(body), ...extra },
  };
}

/** The gzip members of the response records of the archive's first file, in the order written. */
function responseMembers(archive: string): Buffer[] {
  const bytes = readFileSync(warcFiles(archive)[0]!);
  const index = openArchiveIndex(archive);
  const rows = index.rowsOfFile(index.listFiles()[0]!).filter((row) => row.type === 'response');
  index.close();
  return rows.map((row) => bytes.subarray(row.offset, row.offset + row.length));
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('openArchiveWriter', () => {
  it('writes request and response records that node-warc reads back: count, types, URIs, payload digests recomputed', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive, now: () => at, pid: 4242 });
    const one = await writer.writeExchange(exchange('http://a.example/page?x=1', '<html><p>Fee: $25</p></html>\n'));
    const two = await writer.writeExchange(exchange('http://b.example/', '<html><p>Grant up to $5,000</p>\n</html>\n'));
    await writer.close();
    const files = warcFiles(archive);
    assert.deepEqual(files.map((file) => file.slice(archive.length + 1)), ['warc/2026/11/23/hra-20261123040506-4242-00001.warc.gz']);
    assert.deepEqual(warcFiles(archive, '.open'), [], 'closed on close');
    const records = await readArchivedExchanges(files[0]!);
    assert.deepEqual(records.map((r) => [r.warcHeader['WARC-Type'], r.warcHeader['WARC-Target-URI']]), [
      ['response', 'http://a.example/page?x=1'], ['request', 'http://a.example/page?x=1'],
      ['response', 'http://b.example/'], ['request', 'http://b.example/'],
    ]);
    assert.deepEqual(records.map((r) => r.warcHeader['WARC-Record-ID']),
      [one.responseRecordId, one.requestRecordId, two.responseRecordId, two.requestRecordId]);
    for (const [i, done] of [one, two].entries()) {
      const response = records[i * 2]!;
      const payload = nodeWarcPayload(response);
      assert.equal(sha256(payload), done.payloadSha256, 'payload digest recomputed from what node-warc read');
      assert.equal(response.warcHeader['WARC-Payload-Digest'], warcPayloadDigest(done.payloadSha256));
      assert.equal(response.warcHeader['WARC-IP-Address'], '127.0.0.1');
      assert.equal(response.warcHeader['WARC-Date'], '2026-11-23T04:05:06.789Z');
      assert.equal(String(response.httpInfo?.statusCode), '200');
      assert.equal(records[i * 2 + 1]!.warcHeader['WARC-Concurrent-To'], done.responseRecordId);
      assert.equal(records[i * 2 + 1]!.httpInfo?.method, 'GET');
    }
    assert.equal(records[0]!.warcHeader.WARC, '1.1');
  });

  it('writes a payload already archived as an identical-payload-digest revisit with no payload, and reads it back whole', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive });
    const page = '<html><p>Fee: $25</p></html>\n';
    const first = await writer.writeExchange(exchange('http://a.example/', page));
    await writer.close();
    const again = await openArchiveWriter({ archiveDir: archive });
    const second = await again.writeExchange(exchange('http://a.example/', page));
    await again.close();
    assert.equal(first.responseType, 'response');
    assert.equal(second.responseType, 'revisit');
    assert.equal(second.payloadSha256, first.payloadSha256);
    const files = warcFiles(archive);
    assert.equal(files.length, 2, 'a new file per run');
    const revisit = (await readArchivedExchanges(files[1]!))[0]!;
    assert.equal(revisit.warcHeader['WARC-Type'], 'revisit');
    assert.equal(revisit.warcHeader['WARC-Profile'], 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest');
    assert.equal(revisit.warcHeader['WARC-Refers-To'], first.responseRecordId);
    assert.equal(revisit.warcHeader['WARC-Refers-To-Target-URI'], 'http://a.example/');
    assert.equal(revisit.warcHeader['WARC-Refers-To-Date'], at.toISOString());
    assert.equal(revisit.warcHeader['WARC-Payload-Digest'], warcPayloadDigest(first.payloadSha256));
    assert.equal(String(revisit.httpInfo?.statusCode), '200', 'HTTP headers kept');
    const index = openArchiveIndex(archive, { readonly: true });
    const read = await readArchivedRecord(archive, index, second.responseRecordId);
    assert.equal(Buffer.from(read.payload).toString(), page);
    assert.equal(read.payloadRow.recordId, first.responseRecordId);
    index.close();
  });

  it('writes an empty payload (HEAD, a redirect) as a response each time: a revisit would only add headers to nothing', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive });
    const head = (url: string): ArchiveExchange => ({ ...exchange(url, ''), request: { method: 'HEAD', headers: [] } });
    const done = [await writer.writeExchange(head('http://a.example/1')), await writer.writeExchange(head('http://a.example/2'))];
    await writer.close();
    assert.deepEqual(done.map((d) => d.responseType), ['response', 'response']);
    assert.equal(done[1]!.payloadSha256, sha256(new Uint8Array()));
  });

  it('rolls to a new file once the next exchange would pass the roll size, each file read whole by node-warc', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive, rollBytes: 1500 });
    const done = [];
    for (let i = 0; i < 6; i += 1) done.push(await writer.writeExchange(exchange(`http://a.example/${i}`, `<p>page ${i} ${'x'.repeat(i * 40)}</p>\n`)));
    await writer.close();
    const files = warcFiles(archive);
    assert.ok(files.length >= 3, `rolled into ${files.length} files`);
    let count = 0;
    for (const file of files) {
      assert.ok(statSync(file).size <= 1500 || (await readArchivedExchanges(file)).length === 2, `${file} within the roll size or holding one exchange`);
      count += (await readArchivedExchanges(file)).length;
    }
    assert.equal(count, 12);
    const index = openArchiveIndex(archive, { readonly: true });
    assert.deepEqual(index.listFiles(), files.map((file) => file.slice(archive.length + 1)));
    for (const d of done) assert.equal(index.byRecordId(d.responseRecordId)?.file, d.file);
    index.close();
  });

  it('begins every file, rolled ones too, with one unindexed warcinfo record: software and version, format, the operator\'s contact, the User-Agent', async () => {
    const archive = freshArchive();
    const info = { software: 'home-repair-api/9.8.7', contact: 'https://ops.example.test/contact', userAgent: 'hra-link-check (+https://ops.example.test/contact; dataset d)' };
    const writer = await openArchiveWriter({ archiveDir: archive, rollBytes: 1500, info });
    for (let i = 0; i < 4; i += 1) await writer.writeExchange(exchange(`http://a.example/${i}`, `<p>page ${i} ${'x'.repeat(300)}</p>\n`));
    await writer.close();
    const files = warcFiles(archive);
    assert.ok(files.length >= 2, `rolled into ${files.length} files`);
    const index = openArchiveIndex(archive, { readonly: true });
    const { WARCParser } = await import('warcio');
    for (const file of files) {
      const all = await readWithNodeWarc(file);
      assert.deepEqual(all.map((record) => record.warcHeader['WARC-Type']).filter((type) => type === 'warcinfo'), ['warcinfo'], `${file}: one warcinfo`);
      assert.equal(all[0]!.warcHeader['WARC-Type'], 'warcinfo', `${file}: first`);
      assert.equal(nodeWarcPayload(all[0]!).toString(), 'software: home-repair-api/9.8.7\r\nformat: WARC File Format 1.1\r\n' +
        'conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\noperator: https://ops.example.test/contact\r\n' +
        'http-header-user-agent: hra-link-check (+https://ops.example.test/contact; dataset d)');
      // warcio, the other reader the archive's commands use, reads it first too, and the index starts after it.
      const first = await new WARCParser([readFileSync(file)]).parse();
      assert.equal(first?.warcType, 'warcinfo');
      const rows = index.rowsOfFile(file.slice(archive.length + 1));
      assert.ok(rows.length >= 2 && rows.every((row) => row.type !== ('warcinfo' as string)));
      assert.ok(rows[0]!.offset > 0, 'the first indexed record follows the warcinfo');
    }
    index.close();
  });

  it('refuses a warcinfo field holding a line break when opened, writing nothing', async () => {
    const archive = freshArchive();
    await assert.rejects(openArchiveWriter({ archiveDir: archive, info: { software: 'home-repair-api/1', contact: 'https://a.test/\r\nWARC-Type: response' } }), /warcinfo operator: a line break/);
    assert.deepEqual(warcFiles(archive, ''), []);
  });

  it('writes every member, the warcinfo included, at zlib level 1, each one gzip member that reads back whole', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive, now: () => at, pid: 4243 });
    // A page of a real size: level 6 and level 1 differ on it in size, so the level is what the bytes show.
    const page = `<html><body>${Array.from({ length: 4000 }, (_, i) => `<p class="c${i % 7}">Grant item ${i}: up to $${i * 5}</p>`).join('\n')}</body></html>`;
    await writer.writeExchange(exchange('http://a.example/big', page));
    await writer.close();
    const file = warcFiles(archive)[0]!;
    const bytes = readFileSync(file);
    const index = openArchiveIndex(archive);
    const rows = index.rowsOfFile(index.listFiles()[0]!);
    index.close();
    const starts = [0, ...rows.map((row) => row.offset)];
    const ends = [rows[0]!.offset, ...rows.map((row) => row.offset + row.length)];
    assert.equal(ends.at(-1), bytes.length, 'the members are the whole file');
    for (const [i, start] of starts.entries()) {
      const member = bytes.subarray(start, ends[i]);
      assert.deepEqual([...member.subarray(0, 3)], [0x1f, 0x8b, 8], 'a gzip member, deflate');
      // XFL 4: zlib marks a member written at its fastest level (RFC 1952); the default level writes 0.
      assert.equal(member[8], 4, `member ${i} written at level 1`);
      assert.equal(gunzipSync(member).length > 0, true);
    }
    const response = gunzipSync(bytes.subarray(starts[1]!, ends[1])).toString('latin1');
    assert.ok(response.includes(`\r\n\r\n${page}\r\n\r\n`), 'the response member holds the page whole');
    assert.equal(bytes.subarray(starts[1]!, ends[1]).length, gzipSync(gunzipSync(bytes.subarray(starts[1]!, ends[1])), { level: 1 }).length);
  });

  it('stores a record whose bytes do not compress (level 0), which reads back whole, and compresses the page beside it', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive, now: () => at, pid: 4244 });
    // A PDF's body is mostly compressed streams already: random bytes, which deflate cannot shrink, stand for one.
    const streams = randomBytes(200 * 1024);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj << /Length 204800 >> stream\n'), streams, Buffer.from('\nendstream endobj\n%%EOF\n')]);
    const page = `<html><body>${Array.from({ length: 4000 }, (_, i) => `<p>Grant item ${i}: up to $${i * 5}</p>`).join('\n')}</body></html>`;
    await writer.writeExchange(exchange('http://a.example/flyer.pdf', '', { headers: [['Content-Type', 'application/pdf']], payload: pdf }));
    await writer.writeExchange(exchange('http://a.example/page', page));
    await writer.close();
    const [stored, compressed] = responseMembers(archive);
    const storedRecord = gunzipSync(stored!);
    assert.ok(storedRecord.includes(pdf), 'the stored member holds the PDF whole');
    assert.equal(stored!.length, gzipSync(storedRecord, { level: 0 }).length, 'written at level 0');
    assert.ok(stored!.length < storedRecord.length + 64, `stored adds a few bytes a block, not more (${stored!.length} for ${storedRecord.length})`);
    const pageRecord = gunzipSync(compressed!);
    assert.equal(compressed!.length, gzipSync(pageRecord, { level: 1 }).length, 'the page beside it at level 1');
    assert.ok(compressed!.length < pageRecord.length / 3);
  });

  it('compresses a long record whose middle does not compress when the rest of it does', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive, now: () => at, pid: 4245 });
    // A PDF with an image between pages of text: a slice from its middle alone would call it incompressible.
    const text = (from: number) => Buffer.from(Array.from({ length: 2200 }, (_, i) => `BT (Repairs up to $${(from + i) * 5}) Tj ET\n`).join(''));
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), text(0), randomBytes(80 * 1024), text(5000), Buffer.from('%%EOF\n')]);
    await writer.writeExchange(exchange('http://a.example/guide.pdf', '', { headers: [['Content-Type', 'application/pdf']], payload: pdf }));
    await writer.close();
    const [member] = responseMembers(archive);
    const record = gunzipSync(member!);
    assert.ok(record.includes(pdf));
    assert.equal(member!.length, gzipSync(record, { level: 1 }).length, 'written at level 1');
  });

  it('never writes Authorization, Proxy-Authorization, Cookie or Set-Cookie, in either direction', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive });
    await writer.writeExchange({
      ...exchange('http://a.example/', '<p>x</p>\n'),
      request: { method: 'GET', headers: [['Authorization', 'Basic c2VjcmV0'], ['proxy-authorization', 'Basic cHJveHk='], ['Cookie', 'sid=secret-cookie'], ['Accept', '*/*']] },
      response: { status: 200, headers: [['Set-Cookie', 'sid=secret-set'], ['SET-COOKIE', 'b=2'], ['Content-Type', 'text/plain']], payload: Buffer.from('<p>x</p>\n') },
    });
    await writer.close();
    const file = warcFiles(archive)[0]!;
    const text = (await import('node:zlib')).gunzipSync(readFileSync(file)).toString('latin1');
    for (const secret of ['c2VjcmV0', 'cHJveHk=', 'secret-cookie', 'secret-set', 'b=2']) assert.ok(!text.includes(secret), secret);
    assert.doesNotMatch(text, /authorization|cookie/i);
    assert.match(text, /Accept: \*\/\*/);
  });

  it('keeps a content-encoded payload as received, marks a partial read WARC-Truncated: length, and renames Transfer-Encoding', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive });
    const gz = gzipSync('<html>compressed page</html>');
    const done = await writer.writeExchange({
      ...exchange('http://a.example/gz', ''),
      response: { status: 200, headers: [['Content-Encoding', 'gzip'], ['Transfer-Encoding', 'chunked']], payload: gz.subarray(0, 10), truncated: 'length' },
    });
    await writer.close();
    const index = openArchiveIndex(archive, { readonly: true });
    const read = await readArchivedRecord(archive, index, done.responseRecordId);
    assert.deepEqual(Buffer.from(read.payload), gz.subarray(0, 10));
    assert.equal(read.truncated, 'length');
    assert.deepEqual(read.httpHeaders, [['Content-Encoding', 'gzip'], ['X-Archive-Orig-Transfer-Encoding', 'chunked']]);
    assert.equal(done.payloadSha256, sha256(gz.subarray(0, 10)));
    index.close();
  });

  it('seals a killed writer\'s .open file: bytes past the last indexed record are cut and never read as a record', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive, pid: 7001, isProcessAlive: () => false });
    const kept = await writer.writeExchange(exchange('http://a.example/kept', '<p>kept</p>\n'));
    // Simulate the kill: the file stays open; a whole record written but never indexed, then garbage, follow.
    const openFile = warcFiles(archive, '.open')[0]!;
    const indexedSize = statSync(openFile).size;
    const other = freshArchive();
    const stray = await openArchiveWriter({ archiveDir: other });
    await stray.writeExchange(exchange('http://a.example/never-indexed-here', '<p>stray</p>\n'));
    await stray.close();
    appendFileSync(openFile, readFileSync(warcFiles(other)[0]!));
    appendFileSync(openFile, Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]));
    const next = await openArchiveWriter({ archiveDir: archive, isProcessAlive: () => false });
    assert.deepEqual(next.sealed.map((s) => s.removed), [false]);
    assert.ok(next.sealed[0]!.cutBytes > 7);
    await next.close();
    const closed = openFile.slice(0, -'.open'.length);
    assert.equal(statSync(closed).size, indexedSize);
    const records = await readArchivedExchanges(closed);
    assert.deepEqual(records.map((r) => r.warcHeader['WARC-Target-URI']), ['http://a.example/kept', 'http://a.example/kept']);
    const index = openArchiveIndex(archive, { readonly: true });
    assert.equal(Buffer.from((await readArchivedRecord(archive, index, kept.responseRecordId)).payload).toString(), '<p>kept</p>\n');
    index.close();
  });

  it('seals an .open file cut mid-record back to its last whole indexed record, and removes one with none', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive, pid: 7002, isProcessAlive: () => false });
    await writer.writeExchange(exchange('http://a.example/1', '<p>one</p>\n'));
    await writer.writeExchange(exchange('http://a.example/2', '<p>two</p>\n'));
    const openFile = warcFiles(archive, '.open')[0]!;
    const index = openArchiveIndex(archive);
    const rows = index.rowsOfFile(openFile.slice(archive.length + 1, -'.open'.length));
    // Cut mid-way through the second exchange's response member, and drop its rows as a kill before indexing would.
    truncateSync(openFile, rows[2]!.offset + Math.floor(rows[2]!.length / 2));
    index.database.prepare('DELETE FROM records WHERE offset >= ?').run(rows[2]!.offset);
    const empty = join(archive, 'warc', '2026', '01', '01', 'hra-20260101000000-7003-00001.warc.gz.open');
    (await import('node:fs')).mkdirSync(join(empty, '..'), { recursive: true });
    writeFileSync(empty, Buffer.from([0x1f, 0x8b, 8]));
    const next = await openArchiveWriter({ archiveDir: archive, index, isProcessAlive: () => false });
    await next.close();
    assert.deepEqual(next.sealed.map((s) => [s.file.split('/').at(-1), s.removed]), [
      ['hra-20260101000000-7003-00001.warc.gz', true],
      [openFile.split('/').at(-1)!.slice(0, -'.open'.length), false],
    ]);
    assert.equal(existsSync(empty), false);
    const closed = openFile.slice(0, -'.open'.length);
    assert.equal(statSync(closed).size, rows[2]!.offset);
    assert.equal((await readArchivedExchanges(closed)).length, 2);
    index.close();
  });

  it('writes exchanges sent at once in batches: all indexed, repeats within a batch revisit its first, and a write made as one resolves is not left waiting', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive });
    const pages = Array.from({ length: 40 }, (_, i) => `<p>page ${i % 10}</p>\n`);
    const chained: Promise<unknown>[] = [];
    const done = await Promise.all(pages.map((page, i) => writer.writeExchange(exchange(`http://a.example/${i}`, page)).then((result) => {
      // Written from the continuation of another write, as a redirect's next hop is.
      chained.push(writer.writeExchange(exchange(`http://b.example/${i}`, `<p>next ${i}</p>\n`)));
      return result;
    })));
    await Promise.all(chained);
    await writer.close();
    assert.equal(done.filter((d) => d.responseType === 'response').length, 10, 'ten distinct pages');
    const index = openArchiveIndex(archive, { readonly: true });
    for (const d of done) {
      const read = await readArchivedRecord(archive, index, d.responseRecordId);
      assert.equal(sha256(read.payload), d.payloadSha256);
      if (d.responseType === 'revisit') assert.equal(index.byRecordId(read.row.refersTo!)?.type, 'response');
    }
    const files = warcFiles(archive);
    let records = 0;
    for (const file of files) records += (await readArchivedExchanges(file)).length;
    assert.equal(records, 160);
    assert.equal(index.database.prepare('SELECT COUNT(*) FROM records').pluck().get(), 160);
    index.close();
  });

  it('after a failed write rejects that exchange and every later one, leaving a tail the next writer seals', async () => {
    const archive = freshArchive();
    const index = openArchiveIndex(archive);
    let failing = false;
    const flaky = { ...index, insert: (rows: Parameters<typeof index.insert>[0]) => (failing ? assert.fail('disk full') : index.insert(rows)) };
    const writer = await openArchiveWriter({ archiveDir: archive, index: flaky, pid: 7010, isProcessAlive: () => false });
    await writer.writeExchange(exchange('http://a.example/kept', '<p>kept</p>\n'));
    failing = true;
    await assert.rejects(writer.writeExchange(exchange('http://a.example/lost', '<p>lost</p>\n')), /disk full/);
    await assert.rejects(writer.writeExchange(exchange('http://a.example/after', '<p>after</p>\n')), /disk full/);
    await writer.close();
    const next = await openArchiveWriter({ archiveDir: archive, index, isProcessAlive: () => false });
    await next.close();
    assert.equal(next.sealed.length, 1);
    assert.ok(next.sealed[0]!.cutBytes > 0, 'the unindexed exchange was cut');
    const records = await readArchivedExchanges(join(archive, next.sealed[0]!.file));
    assert.deepEqual(records.map((r) => r.warcHeader['WARC-Target-URI']), ['http://a.example/kept', 'http://a.example/kept']);
    index.close();
  });

  it('leaves the .open file of a writer that is still alive', async () => {
    const archive = freshArchive();
    const writer = await openArchiveWriter({ archiveDir: archive, pid: 7004 });
    await writer.writeExchange(exchange('http://a.example/', '<p>x</p>\n'));
    const second = await openArchiveWriter({ archiveDir: archive, isProcessAlive: (pid) => pid === 7004 });
    assert.deepEqual(second.sealed, []);
    assert.equal(warcFiles(archive, '.open').length, 1);
    await second.close();
    await writer.close();
  });
});
