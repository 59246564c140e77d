import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EncodedReply } from '../../../gateway/encoding/encode-reply.ts';
import { createSuccessTails, successTail, type SuccessReply } from '../../../gateway/fast-path/success-tails.ts';

const REVISION_A = `gm1-${'a'.repeat(64)}`;
const REVISION_B = `gm1-${'b'.repeat(64)}`;
const body = Buffer.from('{"programs":[]}');
const reply: SuccessReply = { status: 200, body };
const identity: EncodedReply = { body, bodyBytes: body.length, coding: 'identity', headers: [], vary: true };

describe('createSuccessTails', () => {
  it('makes the tail once for the same bytes, route and revision', () => {
    const tails = createSuccessTails();
    const route = {};
    const first = tails(route, [], reply, identity, REVISION_A, false);
    assert.deepEqual(first, ['Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(body.length), 'X-Dataset-Revision', REVISION_A]);
    assert.equal(tails(route, [], reply, identity, REVISION_A, false), first);
  });

  it('makes it again for another revision, also when revisions interleave (a swap)', () => {
    const tails = createSuccessTails();
    const route = {};
    for (const revision of [REVISION_A, REVISION_B, REVISION_A, REVISION_B]) {
      assert.deepEqual(tails(route, [], reply, identity, revision, false), successTail([], reply, identity, revision, false));
    }
  });

  it('gives the same bytes served by two routes each its own caching headers', () => {
    const tails = createSuccessTails();
    const publicRoute = {};
    const licensedRoute = {};
    const publicCaching = ['Cache-Control', 'public, max-age=300'];
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(tails(publicRoute, publicCaching, reply, identity, REVISION_A, false).slice(0, 2), publicCaching);
      assert.equal(tails(licensedRoute, [], reply, identity, REVISION_A, false)[0], 'Content-Type');
    }
  });

  it('follows the reply: its headers, media type, tag, coding and where Vary goes', () => {
    const tails = createSuccessTails();
    const route = {};
    const variants: [SuccessReply, EncodedReply, boolean][] = [
      [reply, identity, false],
      [reply, identity, true],
      [{ ...reply, headers: [['Content-Security-Policy', "default-src 'none'"]] }, identity, false],
      [{ ...reply, contentType: 'text/html; charset=utf-8' }, identity, false],
      [{ ...reply, etag: '"abc"' }, { ...identity, headers: [['ETag', '"abc"']] }, false],
      [{ ...reply, etag: '"abc"' }, { ...identity, coding: 'gzip', headers: [['ETag', '"abc-gzip"'], ['Content-Encoding', 'gzip']] }, false],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [variant, encoded, varyInTail] of variants) {
        assert.deepEqual(tails(route, [], variant, encoded, REVISION_A, varyInTail), successTail([], variant, encoded, REVISION_A, varyInTail));
      }
    }
    assert.deepEqual(tails(route, [], reply, identity, REVISION_A, true).slice(0, 2), ['Vary', 'Accept-Encoding']);
  });

  it('adds Accept-Encoding to a Vary the route already sends, as one field', () => {
    const tail = successTail(['Cache-Control', 'no-store', 'Vary', 'Origin'], reply, identity, REVISION_A, true);
    assert.deepEqual(tail.slice(0, 4), ['Cache-Control', 'no-store', 'Vary', 'Origin, Accept-Encoding']);
  });

  it('measures a string body afresh every time', () => {
    const tails = createSuccessTails();
    const route = {};
    for (const text of ['{}', '{"a":"é"}']) {
      const encoded: EncodedReply = { body: text, bodyBytes: Buffer.byteLength(text), coding: 'identity', headers: [], vary: false };
      assert.equal(tails(route, [], { status: 200, body: text }, encoded, REVISION_A, false)[3], String(Buffer.byteLength(text)));
    }
  });
});
