import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeReply } from '../../../gateway/encoding/encode-reply.ts';
import type { EncodedBodies } from '../../../gateway/encoding/encoded-bodies.ts';
import type { RouteReply, RouteRequest } from '../../../gateway/pipeline/route-exchange.ts';
import type { Snapshot } from '../../../gateway/snapshot/open-snapshot.ts';

const snapshot = {} as Snapshot;
const BODY = Buffer.alloc(2048, 0x61);
const FORMS = { br: Buffer.from('br form'), gzip: Buffer.from('gzip form') };
/** A store holding both forms of BODY, as the served snapshot's store does once they are made. */
const encodings: Pick<EncodedBodies, 'lookup'> = { lookup: (_snapshot, body, coding) => (body === BODY ? FORMS[coding] : undefined) };

function request(headers: Record<string, string>): RouteRequest {
  return { method: 'GET', params: {}, querystring: '', snapshot, header: (name) => headers[name] ?? '', clientAddress: () => '127.0.0.1' };
}
const encode = (reply: RouteReply, headers: Record<string, string>) => encodeReply(reply, request(headers), encodings as EncodedBodies, true);

describe('encodeReply', () => {
  it('sends an untagged body in the coding asked for with its one header, a list shared by every such reply', () => {
    const first = encode({ status: 200, body: BODY }, { 'accept-encoding': 'br' });
    assert.deepEqual([first.status, first.coding, first.body, first.bodyBytes, first.vary], [200, 'br', FORMS.br, FORMS.br.length, true]);
    assert.deepEqual(first.headers, [['Content-Encoding', 'br']]);
    const second = encode({ status: 200, body: BODY }, { 'accept-encoding': 'br' });
    assert.equal(second.headers, first.headers, 'no list made per request');
    assert.deepEqual(encode({ status: 200, body: BODY }, { 'accept-encoding': 'gzip' }).headers, [['Content-Encoding', 'gzip']]);
    assert.deepEqual(encode({ status: 200, body: BODY }, {}).headers, []);
  });

  it('gives a tagged body each coding\'s tag, made once per tag and coding', () => {
    const reply: RouteReply = { status: 200, body: BODY, etag: '"abc"' };
    const br = encode(reply, { 'accept-encoding': 'br' });
    assert.deepEqual(br.headers, [['ETag', '"abc-br"'], ['Content-Encoding', 'br']]);
    assert.equal(encode(reply, { 'accept-encoding': 'br' }).headers, br.headers, 'no list or tag made per request');
    assert.deepEqual(encode(reply, { 'accept-encoding': 'gzip' }).headers, [['ETag', '"abc-gzip"'], ['Content-Encoding', 'gzip']]);
    assert.deepEqual(encode(reply, {}).headers, [['ETag', '"abc"']]);
  });

  it('answers 304 only to the tag of the representation selected, with that tag alone', () => {
    const reply: RouteReply = { status: 200, body: BODY, etag: '"abc"' };
    const notModified = encode(reply, { 'accept-encoding': 'br', 'if-none-match': 'W/"abc-br"' });
    assert.deepEqual([notModified.status, notModified.body, notModified.bodyBytes, notModified.headers], [304, undefined, 0, [['ETag', '"abc-br"']]]);
    assert.equal(encode(reply, { 'accept-encoding': 'br', 'if-none-match': '"abc"' }).status, 200, 'the identity tag does not name the br bytes');
    assert.deepEqual(encode(reply, { 'if-none-match': '"abc"' }).headers, [['ETag', '"abc"']]);
    assert.equal(encode(reply, { 'if-none-match': '*' }).status, 304);
  });

  it('sends a short body as it is, without Vary', () => {
    const short = encode({ status: 200, body: 'x'.repeat(100) }, { 'accept-encoding': 'br' });
    assert.deepEqual([short.coding, short.vary, short.headers], ['identity', false, []]);
  });
});
