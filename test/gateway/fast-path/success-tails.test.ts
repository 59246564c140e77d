import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EncodedReply } from '../../../gateway/encoding/encode-reply.ts';
import { createSuccessTails, successTail, type SuccessReply } from '../../../gateway/fast-path/success-tails.ts';

const REVISION_A = `gm1-${'a'.repeat(64)}`;
const REVISION_B = `gm1-${'b'.repeat(64)}`;
const PUBLIC_CACHING = ['Cache-Control', 'public, no-cache'];

/** A 200 of `text` as identity bytes, and its encoding. */
function answer(text: string): [SuccessReply, EncodedReply] {
  const body = Buffer.from(text);
  return [{ status: 200, body }, { status: 200, body, bodyBytes: body.length, coding: 'identity', headers: [], vary: true }];
}

describe('createSuccessTails', () => {
  it('makes the tail once for the same length and revision', () => {
    const tails = createSuccessTails([]);
    const [reply, encoded] = answer('{"programs":[]}');
    const first = tails(reply, encoded, REVISION_A, false);
    assert.deepEqual(first, ['Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(encoded.bodyBytes), 'X-Dataset-Revision', REVISION_A]);
    assert.equal(tails(reply, encoded, REVISION_A, false), first);
    // Another body of the same length: the same headers, so the same tail.
    const [other, otherEncoded] = answer('{"programs":[1]');
    assert.equal(tails(other, otherEncoded, REVISION_A, false), first);
  });

  it('makes it again for another revision, also when revisions interleave (a swap)', () => {
    const tails = createSuccessTails([]);
    const [reply, encoded] = answer('{}');
    for (const revision of [REVISION_A, REVISION_B, REVISION_A, REVISION_B]) {
      assert.deepEqual(tails(reply, encoded, revision, false), successTail([], reply, encoded, revision, false));
    }
  });

  it('gives each length its own Content-Length', () => {
    const tails = createSuccessTails(PUBLIC_CACHING);
    for (let round = 0; round < 2; round++) {
      for (const text of ['{}', '{"a":1}', '{"a":"é"}', '[]']) {
        const [reply, encoded] = answer(text);
        assert.deepEqual(tails(reply, encoded, REVISION_A, false), successTail(PUBLIC_CACHING, reply, encoded, REVISION_A, false));
      }
    }
  });

  it('follows the reply: its headers, media type, tag, coding and where Vary goes', () => {
    const tails = createSuccessTails(PUBLIC_CACHING);
    const [reply, identity] = answer('{"programs":[]}');
    const variants: [SuccessReply, EncodedReply, boolean][] = [
      [reply, identity, false],
      [reply, identity, true],
      [{ ...reply, headers: [['Content-Security-Policy', "default-src 'none'"]] }, identity, false],
      [{ ...reply, contentType: 'text/html; charset=utf-8' }, identity, false],
      [{ ...reply, etag: '"abc"' }, { ...identity, headers: [['ETag', '"abc"']] }, false],
      [{ ...reply, etag: '"abd"' }, { ...identity, headers: [['ETag', '"abd"']] }, false],
      [{ ...reply, etag: '"abc"' }, { ...identity, coding: 'gzip', headers: [['ETag', '"abc-gzip"'], ['Content-Encoding', 'gzip']] }, false],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [variant, encoded, varyInTail] of variants) {
        assert.deepEqual(tails(variant, encoded, REVISION_A, varyInTail), successTail(PUBLIC_CACHING, variant, encoded, REVISION_A, varyInTail));
      }
    }
    assert.deepEqual(tails(reply, identity, REVISION_A, true).slice(0, 4), [...PUBLIC_CACHING, 'Vary', 'Accept-Encoding']);
  });

  it('adds Accept-Encoding to a Vary the route already sends, as one field', () => {
    const [reply, encoded] = answer('{}');
    const tail = successTail(['Cache-Control', 'no-store', 'Vary', 'Origin'], reply, encoded, REVISION_A, true);
    assert.deepEqual(tail.slice(0, 4), ['Cache-Control', 'no-store', 'Vary', 'Origin, Accept-Encoding']);
  });

  it('stays exact past its bound of lengths', () => {
    const tails = createSuccessTails([], 2);
    for (let round = 0; round < 2; round++) {
      for (const text of ['{}', '{"a":1}', '{"ab":1}', '{"abc":1}']) {
        const [reply, encoded] = answer(text);
        assert.deepEqual(tails(reply, encoded, REVISION_A, false), successTail([], reply, encoded, REVISION_A, false));
      }
    }
  });
});
