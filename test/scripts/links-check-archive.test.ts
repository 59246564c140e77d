/**
 * `hra links check` writes the evidence archive (issue 32): the real CLI in a child process, through the loopback
 * fixture proxy, then the archive read back by id (build/archive/read-archived-record.ts) and every file read whole
 * by node-warc, the independent reader. No request leaves the machine.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { openArchiveIndex, type ArchiveIndexRow } from '../../build/archive/archive-index.ts';
import { readArchivedRecord } from '../../build/archive/read-archived-record.ts';
import { loadCorpus, readCityPrograms } from '../../build/corpus/load-corpus.ts';
import { EXTRACTOR_VERSION } from '../../build/quotes/extractor-version.ts';
import { startLinkFixture, type LinkFixture } from '../../scripts/loopback/link-fixture-proxy.ts';
import { writeLinkTestCorpus, writeSlowHostCorpus } from '../support/link-test-corpus.ts';
import { nodeWarcPayload, readArchivedExchanges } from '../support/read-with-node-warc.ts';
import { killAfterAppended, runHraAsync } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { warcFiles } from '../support/warc-files.ts';

const work = makeTempDir('hra-links-archive-');
// A deadline long enough that no answer of a loaded machine misses it (only the stalled URL's do, by design).
const FAST = ['--host-interval-ms', '20', '--timeout-ms', '3000', '--retries', '1', '--per-host', '2', '--concurrency', '8'];
const CREDENTIALS = `Basic ${Buffer.from('checker:s3cret-proxy-pass').toString('base64')}`;
const LONG_BODY = `<!doctype html><html><head><title>Long Program Page</title></head><body><h1>Long Program</h1>${'<p>filler paragraph of the long page</p>\n'.repeat(60_000)}</body></html>`;
// Under the page limits, with its amount long after its first heading: what a review of it must see.
const WHOLE_BODY = `<!doctype html><html><head><title>Whole Program Page</title></head><body><h1>Whole Program</h1>${'<p>filler paragraph of the whole page</p>\n'.repeat(5_000)}<p>Grants of up to $7,500 per home.</p></body></html>`;
const EXTRA = [
  'http://hops.test/redirect/2/section/', 'http://flaky.test/flaky', 'http://head.test/head-405', 'http://gz.test/soft-404-gzip',
  'http://big.test/long', 'http://cookie.test/cookie', 'http://dead.test/missing', 'http://stall.test/stall',
];

const rowsOf = (text: string) => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Pages the built-in fixture lacks: a long page whose start is all the link rules read, and one that sets a cookie. */
function extraPages(request: IncomingMessage, response: ServerResponse, target: URL): boolean {
  if (target.pathname === '/long' || target.pathname === '/whole') {
    response.writeHead(200, { 'content-type': 'text/html' });
    if (request.method === 'HEAD') return void response.end(), true;
    // In pieces, so the reader stops after the first h1 long before the end.
    const body = Buffer.from(target.pathname === '/long' ? LONG_BODY : WHOLE_BODY);
    let at = 0;
    const next = () => {
      if (response.destroyed) return;
      if (at >= body.length) return void response.end();
      response.write(body.subarray(at, at + 65_536), () => setTimeout(next, 5));
      at += 65_536;
    };
    next();
    return true;
  }
  if (target.pathname === '/cookie') {
    response.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'session=cookie-value-never-archived; Path=/' });
    response.end(request.method === 'HEAD' ? undefined : '<!doctype html><html><head><title>Cookie Program | Agency</title></head><body><h1>Cookie Program</h1></body></html>');
    return true;
  }
  return false;
}

const archiveBytes = (archive: string) => warcFiles(archive).reduce((sum, file) => sum + statSync(file).size, 0);

/** Every file read whole by node-warc agrees with the index: same records, in order, and the payloads hash to their digests. */
async function checkWithNodeWarc(archive: string): Promise<number> {
  const index = openArchiveIndex(archive, { readonly: true });
  let records = 0;
  try {
    for (const file of warcFiles(archive)) {
      const relative = file.slice(archive.length + 1);
      const rows = index.rowsOfFile(relative);
      const read = await readArchivedExchanges(file);
      assert.deepEqual(read.map((r) => [r.warcHeader['WARC-Record-ID'], r.warcHeader['WARC-Type'], r.warcHeader['WARC-Target-URI']]),
        rows.map((row) => [row.recordId, row.type, row.targetUri]), `${relative}: node-warc reads the indexed records and nothing else`);
      for (const [i, record] of read.entries()) {
        const row = rows[i] as ArchiveIndexRow;
        if (row.type !== 'response') continue;
        const payload = nodeWarcPayload(record);
        // node-warc is line-based and drops a payload line that is a bare CRLF; none of these payloads has one.
        assert.ok(!payload.includes('\r\n\r\n'));
        assert.equal(sha256(payload), row.payloadSha256, `${relative} ${row.recordId}: payload digest recomputed from node-warc's read`);
      }
      records += read.length;
    }
  } finally {
    index.close();
  }
  return records;
}

describe('hra links check, evidence archive', () => {
  let fixture: LinkFixture;
  let corpus: string;
  let archive: string;
  let week1 = { bytes: 0, files: [] as string[] };
  before(async () => {
    fixture = await startLinkFixture({ answer: extraPages, proxyAuthorization: CREDENTIALS });
    // Reviewed lately, so not due a review: each URL is read as a link check alone reads it.
    corpus = writeLinkTestCorpus(join(work, 'corpus'), { extraUrls: EXTRA, extraReviewedAt: '2026-11-15' });
    archive = join(work, 'archive');
  });
  after(() => fixture.close());

  it('archives every exchange (each hop, HEAD, retry) in the default folder, and each line names the record it rests on', async () => {
    const linkFile = join(corpus, 'evidence/link-checks.ndjson');
    const quoteFile = join(corpus, 'evidence/quote-checks.ndjson');
    const linksBefore = readFileSync(linkFile, 'utf8').length;
    const quotesBefore = existsSync(quoteFile) ? readFileSync(quoteFile, 'utf8').length : 0;
    const proxy = fixture.proxyUrl.replace('http://', 'http://checker:s3cret-proxy-pass@');
    const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', '2026-11-20T06:00:00Z', '--max-age-days', '10', '--proxy', proxy, ...FAST]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(fixture.authRefused, 0);
    assert.deepEqual(warcFiles(archive, '.open'), [], 'every file closed');
    assert.match(run.stderr, /archive: \d+ exchanges written to .*archive \(\d+ of their responses as revisits of an identical payload\)/, "the fixture serves one page at many URLs: repeats are revisits within a week too");
    const index = openArchiveIndex(archive, { readonly: true });
    const rows = index.database.prepare('SELECT record_id AS recordId, type, target_uri AS targetUri FROM records').all() as ArchiveIndexRow[];
    // Every request the fixture answered is one request record, HEAD and retries included; the stalled ones got no answer.
    const answered = fixture.requests.filter((request) => request.host !== 'stall.test').map((request) => `http://${request.host}${request.path}`).sort();
    assert.deepEqual(rows.filter((row) => row.type === 'request').map((row) => row.targetUri).sort(), answered);
    assert.equal(rows.filter((row) => row.type !== 'request').length, answered.length, 'a response or revisit record per request record');
    assert.ok(answered.filter((url) => url.startsWith('http://hops.test/')).length >= 3, 'each redirect hop');
    assert.deepEqual(fixture.requests.filter((r) => r.host === 'flaky.test').map((r) => r.method), ['HEAD', 'HEAD', 'GET']);

    const links = rowsOf(readFileSync(linkFile, 'utf8').slice(linksBefore));
    assert.equal(links.length, 12 + EXTRA.length);
    for (const line of links) {
      if (line.httpStatus === null) {
        assert.equal(line.warcRecordId, undefined, `${line.url as string}: no response, nothing archived`);
        continue;
      }
      const record = await readArchivedRecord(archive, index, line.warcRecordId as string);
      assert.equal(record.httpStatus, line.httpStatus, `${line.url as string}`);
      assert.equal(sha256(record.payload), line.payloadSha256);
      assert.equal(record.row.payloadSha256, line.payloadSha256);
      assert.ok(record.warcHeaders.some(([name, value]) => name === 'WARC-IP-Address' && value === '127.0.0.1'), 'the proxy\'s address');
    }
    const byUrl = new Map(links.map((line) => [line.url as string, line]));
    const final = async (url: string) => readArchivedRecord(archive, index, byUrl.get(url)!.warcRecordId as string);
    assert.equal((await final('http://hops.test/redirect/2/section/')).row.targetUri, 'http://hops.test/section/', 'the final hop');
    const gz = await final('http://gz.test/soft-404-gzip');
    assert.deepEqual([gz.payload[0], gz.payload[1]], [0x1f, 0x8b], 'content-encoding kept as received');
    // Read only up to its first h1, so archived as that prefix of the gzip stream.
    assert.equal(gz.truncated, 'length');
    assert.match(gunzipSync(gz.payload, { finishFlush: constants.Z_SYNC_FLUSH }).toString(), /^<!doctype html>.*<title>Page not found<\/title>.*<h1>Oops<\/h1>$/);
    assert.ok(gz.httpHeaders.some(([name, value]) => name.toLowerCase() === 'content-encoding' && value === 'gzip'));
    const long = await final('http://big.test/long');
    assert.equal(long.truncated, 'length');
    assert.ok(long.payload.length < LONG_BODY.length && Buffer.from(LONG_BODY).subarray(0, long.payload.length).equals(Buffer.from(long.payload)), 'a prefix, as read');
    const quotes = rowsOf(readFileSync(quoteFile, 'utf8').slice(quotesBefore));
    assert.equal(quotes.length, 3);
    for (const line of quotes) {
      assert.equal(line.extractor, EXTRACTOR_VERSION);
      assert.equal(line.warcRecordId, byUrl.get(line.url as string)?.warcRecordId, 'the same page as the link check');
      assert.equal(line.payloadSha256, byUrl.get(line.url as string)?.payloadSha256);
    }
    const validate = await runHraAsync(['validate', '--corpus', corpus]);
    assert.equal(validate.status, 0, validate.stderr);
    index.close();

    const text = warcFiles(archive).map((file) => gunzipSync(readFileSync(file)).toString('latin1')).join('');
    for (const secret of ['Proxy-Authorization', 'proxy-authorization', 's3cret', Buffer.from('checker:s3cret-proxy-pass').toString('base64'), 'set-cookie', 'cookie-value-never-archived']) {
      assert.ok(!text.includes(secret), `${secret} is never written`);
    }
    assert.equal(await checkWithNodeWarc(archive), rows.length);
    week1 = { bytes: archiveBytes(archive), files: warcFiles(archive).map((file) => file.slice(archive.length + 1)) };
  });

  it('a week later with nothing changed, archives each response as a revisit of the first week\'s payload', async () => {
    const index = openArchiveIndex(archive, { readonly: true });
    const responsesBefore = index.database.prepare("SELECT COUNT(*) FROM records WHERE type = 'response'").pluck().get() as number;
    index.close();
    const proxy = fixture.proxyUrl.replace('http://', 'http://checker:s3cret-proxy-pass@');
    const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', '2026-11-27T06:00:00Z', '--proxy', proxy, ...FAST]);
    assert.equal(run.status, 0, run.stderr);
    const again = openArchiveIndex(archive, { readonly: true });
    const added = again.database.prepare("SELECT target_uri AS url, payload_sha256 AS digest FROM records WHERE type = 'response' ORDER BY rowid LIMIT -1 OFFSET ?")
      .all(responsesBefore) as Array<{ url: string; digest: string }>;
    // Empty payloads (HEAD, redirects) are written whole; the long page's prefix ends where the read stops
    // (its first h1), however its pieces arrived, so it is a revisit too.
    const empty = sha256(new Uint8Array());
    assert.deepEqual(added.filter((row) => row.digest !== empty), [], 'every other response of the second week is a revisit');
    // Week 2's revisits hold no payload: each reads back whole from a response of week 1.
    const week1Files = new Set(week1.files);
    const revisits = again.database.prepare("SELECT record_id FROM records WHERE type = 'revisit' AND file NOT IN (SELECT value FROM json_each(?))")
      .pluck().all(JSON.stringify(week1.files)) as string[];
    assert.ok(revisits.length > 20, `${revisits.length} revisits`);
    for (const id of revisits) {
      const record = await readArchivedRecord(archive, again, id);
      assert.ok(week1Files.has(record.payloadRow.file), `${id}: its payload is in a file of the first week`);
      assert.equal(sha256(record.payload), record.row.payloadSha256);
    }
    again.close();
    assert.ok(archiveBytes(archive) > week1.bytes);
    await checkWithNodeWarc(archive);
  });

  it('reads and archives the whole page of a record due a review, and a record not due only to its first heading', async () => {
    const dir = join(work, 'due');
    // link-1 has no review (due), link-2 an identity review of 2026-11-15 (not due at 2026-11-20).
    const other = writeLinkTestCorpus(join(dir, 'corpus'), { extraUrls: ['http://due.test/whole', 'http://fresh.test/whole'] });
    appendFileSync(join(other, 'evidence/source-reviews.ndjson'), `${JSON.stringify({ city: 'alpha', programId: 'link-2', reviewedAt: '2026-11-15', kind: 'identity', identityMatch: true })}\n`);
    const otherArchive = join(dir, 'archive');
    const proxy = fixture.proxyUrl.replace('http://', 'http://checker:s3cret-proxy-pass@');
    const run = await runHraAsync(['links', 'check', '--corpus', other, '--archive', otherArchive, '--at', '2026-11-20T06:00:00Z', '--proxy', proxy, ...FAST]);
    assert.equal(run.status, 0, run.stderr);
    const derivedAll = /reviews: \d+ cited URLs of records due a source review, \d+ of them to check, read as whole pages \((\d+) records derived\)/.exec(run.stderr);
    assert.ok(derivedAll, run.stderr);
    const loaded = loadCorpus(other);
    const served = loaded.cities.filter((city) => city.status === 'live').reduce((sum, city) => sum + readCityPrograms(loaded, city.slug).length, 0);
    assert.ok(served > 1, `${served} records`);
    assert.equal(Number(derivedAll[1]), served, 'a run over every URL derives every record of a live city');
    // A --url run derives the one record its URL cites, not the others (counted: the run's cost at 57,000 records).
    const one = await runHraAsync(['links', 'check', '--corpus', other, '--at', '2026-11-20T06:00:00Z', '--proxy', proxy, ...FAST, '--max-age-days', '0', '--dry-run', '--url', 'http://due.test/whole']);
    assert.equal(one.status, 0, one.stderr);
    assert.match(one.stderr, /reviews: 1 cited URLs of records due a source review, 1 of them to check, read as whole pages \(1 records derived\)/);
    const links = new Map(rowsOf(readFileSync(join(other, 'evidence/link-checks.ndjson'), 'utf8')).map((line) => [line.url as string, line]));
    const index = openArchiveIndex(otherArchive, { readonly: true });
    try {
      const due = await readArchivedRecord(otherArchive, index, links.get('http://due.test/whole')!.warcRecordId as string);
      assert.equal(due.truncated, undefined);
      assert.equal(Buffer.from(due.payload).toString(), WHOLE_BODY, 'the whole page, as served');
      const fresh = await readArchivedRecord(otherArchive, index, links.get('http://fresh.test/whole')!.warcRecordId as string);
      assert.equal(fresh.truncated, 'length');
      assert.ok(fresh.payload.length < WHOLE_BODY.length, 'a record not due is read as a link alone');
    } finally {
      index.close();
    }
    // The worksheet of the due records offers the due page, with the passage past its first heading.
    const sheet = join(dir, 'due.csv');
    const exported = await runHraAsync(['reviews', 'export', '--corpus', other, '--archive', otherArchive, '--out', sheet, '--due', '--at', '2026-11-20', '--json']);
    assert.equal(exported.status, 0, exported.stderr);
    const gaps = (JSON.parse(exported.stdout.trim().split('\n').at(-1)!) as { needLinksCheck: Array<{ programId: string }> }).needLinksCheck;
    assert.ok(!gaps.some((gap) => gap.programId === 'link-1'), JSON.stringify(gaps));
    assert.match(readFileSync(sheet, 'utf8'), /Grants of up to \$7,500 per home/);
  });

  it('archives nothing with --no-archive or --dry-run, and the lines then name no record', async () => {
    for (const flag of ['--no-archive', '--dry-run']) {
      const dir = join(work, `off${flag}`);
      const other = writeLinkTestCorpus(join(dir, 'corpus'), { extraUrls: ['http://site.test/program'] });
      const run = await runHraAsync(['links', 'check', '--corpus', other, '--at', '2026-11-20T06:00:00Z', '--proxy', fixture.proxyUrl.replace('http://', 'http://checker:s3cret-proxy-pass@'), ...FAST, flag]);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(existsSync(join(dir, 'archive')), false, `${flag}: no archive folder`);
      const printed = flag === '--dry-run' ? run.stdout : readFileSync(join(other, 'evidence/link-checks.ndjson'), 'utf8');
      assert.doesNotMatch(printed, /warcRecordId/, flag);
    }
  });

  it('refuses a bad --archive-roll-mb and an archive folder it cannot create, before any request', async () => {
    const requests = fixture.requests.length;
    const bad = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', '2026-12-20T06:00:00Z', '--archive-roll-mb', '0']);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /--archive-roll-mb "0": must be a whole number of at least 1/);
    const blocker = join(work, 'a-file');
    writeFileSync(blocker, '');
    const unwritable = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', '2026-12-20T06:00:00Z', '--proxy', fixture.proxyUrl.replace('http://', 'http://checker:s3cret-proxy-pass@'), '--archive', join(blocker, 'archive'), ...FAST]);
    assert.notEqual(unwritable.status, 0);
    assert.match(unwritable.stderr, /--archive .*a-file\/archive: cannot be opened for writing \(ENOTDIR\); nothing was checked or appended/);
    assert.equal(fixture.requests.length, requests);
  });
});

describe('hra links check, killed while archiving', () => {
  it('leaves no record a reader could mistake: every indexed record reads, and the next run seals the file node-warc then reads whole', async () => {
    const fixture = await startLinkFixture();
    try {
      const { corpus, logFile } = writeSlowHostCorpus(join(work, 'killed', 'corpus'), '2026-11-19');
      const archive = join(work, 'killed', 'archive');
      const base = rowsOf(readFileSync(logFile, 'utf8')).length;
      const args = ['links', 'check', '--corpus', corpus, '--at', '2026-11-20T06:00:00Z', '--proxy', fixture.proxyUrl, '--per-host', '1', '--host-interval-ms', '40', '--timeout-ms', '2000'];
      assert.equal((await killAfterAppended(args, logFile, 5)).signal, 'SIGKILL');
      const [open] = warcFiles(archive, '.open');
      assert.ok(open !== undefined, 'the killed run left its file open');
      const index = openArchiveIndex(archive, { readonly: true });
      const ids = index.database.prepare('SELECT record_id FROM records').pluck().all() as string[];
      for (const id of ids) await readArchivedRecord(archive, index, id);
      for (const line of rowsOf(readFileSync(logFile, 'utf8')).slice(base)) {
        assert.ok(index.byRecordId(line.warcRecordId as string), `${line.url as string}: its record was indexed before its line was appended`);
      }
      index.close();

      const resumed = await runHraAsync(args);
      assert.equal(resumed.status, 0, resumed.stderr);
      assert.match(resumed.stderr, /archive: warc\/\S+\.warc\.gz: sealed, \d+ bytes past its last indexed record cut \(a killed run's file\)/);
      assert.deepEqual(warcFiles(archive, '.open'), []);
      const total = openArchiveIndex(archive, { readonly: true });
      const rows = total.database.prepare('SELECT COUNT(*) FROM records').pluck().get() as number;
      total.close();
      assert.equal(await checkWithNodeWarc(archive), rows);
    } finally {
      await fixture.close();
    }
  });
});
