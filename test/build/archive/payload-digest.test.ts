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
