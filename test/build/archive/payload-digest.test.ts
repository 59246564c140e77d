import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WARCRecord, WARCSerializer, WARC_1_1 } from 'warcio';
import { hexOfWarcPayloadDigest, sha256Hex, warcPayloadDigest } from '../../../build/archive/payload-digest.ts';

describe('warcPayloadDigest', () => {
  it('spells a digest exactly as warcio writes WARC-Payload-Digest, and back', async () => {
    for (const body of ['', 'x', '<html>fee $25</html>\n'.repeat(50)]) {
      const record = WARCRecord.create({ url: 'http://a.example/', type: 'response', warcVersion: WARC_1_1, httpHeaders: {} },
        (async function* () { if (body) yield new TextEncoder().encode(body); })());
      await WARCSerializer.serialize(record, { digest: { algo: 'sha-256', prefix: 'sha256:', base32: true } });
      const hex = sha256Hex(Buffer.from(body));
      assert.equal(warcPayloadDigest(hex), record.warcPayloadDigest);
      assert.equal(hexOfWarcPayloadDigest(record.warcPayloadDigest!), hex);
    }
    assert.equal(hexOfWarcPayloadDigest('sha1:ABC'), undefined);
  });
});

describe('openArchiveWriter digests', () => {
  it('writes the block and payload digests warcio computes itself for the same record', async () => {
    const { mkdtempSync, readFileSync, readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { gunzipSync } = await import('node:zlib');
    const { WARCParser } = await import('warcio');
    const { openArchiveWriter } = await import('../../../build/archive/open-archive-writer.ts');
    const archive = mkdtempSync(join(tmpdir(), 'hra-digests-'));
    const writer = await openArchiveWriter({ archiveDir: archive });
    const payload = Buffer.from('<p>caf\u00e9 fee $25</p>\n');
    const response = { status: 200, statusText: 'OK', headers: [['Content-Type', 'text/html'], ['X-Latin', 'caf\u00e9']] as [string, string][], payload };
    const request = { method: 'GET', headers: [['Accept', '*/*']] as [string, string][] };
    await writer.writeExchange({ targetUri: 'http://a.example/', date: new Date(), request, response });
    await writer.writeExchange({ targetUri: 'http://b.example/', date: new Date(), request, response });
    await writer.close();
    const dir = join(archive, 'warc', ...readdirSync(join(archive, 'warc')));
    const day = join(dir, readdirSync(dir)[0]!, readdirSync(join(dir, readdirSync(dir)[0]!))[0]!);
    const file = join(day, readdirSync(day)[0]!);
    let checked = 0;
    for await (const record of new WARCParser([gunzipSync(readFileSync(file))], { keepHeadersCase: true })) {
      const written = { block: record.warcBlockDigest, payload: record.warcPayloadDigest };
      const body = await record.readFully(false);
      if (record.warcType === 'warcinfo') {
        // warcio hashes no warcinfo: its block digest is the writer's own, over the fields as written.
        assert.equal(checked, 0, 'the warcinfo is the first record');
        assert.equal(written.block, warcPayloadDigest(sha256Hex(body)), 'warcinfo block digest');
        checked += 1;
        continue;
      }
      // The same record again, its digests left for warcio to compute.
      const again = WARCRecord.create({
        url: record.warcTargetURI!, date: record.warcDate!, type: record.warcType, warcVersion: WARC_1_1,
        statusline: record.httpHeaders!.statusline, httpHeaders: [...record.httpHeaders!.headers] as [string, string][],
        ...(record.warcType === 'revisit' ? { warcHeaders: { 'WARC-Payload-Digest': written.payload! } } : {}),
      }, (async function* () { if (body.length) yield body; })());
      await WARCSerializer.serialize(again, { digest: { algo: 'sha-256', prefix: 'sha256:', base32: true } });
      assert.equal(written.block, again.warcBlockDigest, `${record.warcType} block digest`);
      if (record.warcType !== 'request') assert.equal(written.payload, again.warcPayloadDigest, `${record.warcType} payload digest`);
      checked += 1;
    }
    assert.equal(checked, 5, 'warcinfo, response, request, revisit, request');
  });
});
