/**
 * Compressed answers of the real gateway: raw bytes (node:http, which does not decode) held against the
 * identity bytes, per-coding ETags that revalidate only the coding the request selects, weak and in lists, small bodies left as
 * they are, and the bytes-by-coding counter of the metrics port.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ask, type RawAnswer } from '../../support/shared-cache-client.ts';
import { GENEROUS_LIMITS, startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';

const decode = (answer: RawAnswer) => {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body);
  if (coding === 'gzip') return gunzipSync(answer.body);
  return answer.body;
};

describe('compressed responses', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ limits: GENEROUS_LIMITS, flags: { metricsPort: '0' } });
  });
  after(() => gateway.close());

  /** Asks once (which starts the compression), waits for it, and asks again. */
  const stored = async (path: string, headers: Record<string, string>, method = 'GET') => {
    await ask(gateway.url, path, headers, method);
    await gateway.gateway.encodings.settled();
    return ask(gateway.url, path, headers, method);
  };

  for (const [path, key] of [['/openapi.json', undefined], ['/docs', undefined], ['/api/sample', undefined], ['/api/programs/alpha', 'commercial'], ['/api/programs/alpha?type=homeowner', 'commercial'], ['/api/programs/national', 'commercial']] as const) {
    it(`${path}: br and gzip decode to the identity bytes, with Content-Length, Vary and HEAD to match`, async () => {
      const keyHeader: Record<string, string> = key === undefined ? {} : { 'X-Api-Key': gateway.keys[key] };
      const identity = await ask(gateway.url, path, { ...keyHeader, 'Accept-Encoding': 'identity' });
      assert.equal(identity.status, 200);
      assert.equal(identity.headers['content-encoding'], undefined);
      for (const coding of ['br', 'gzip'] as const) {
        const answer = await stored(path, { ...keyHeader, 'Accept-Encoding': coding });
        assert.equal(answer.headers['content-encoding'], coding);
        assert.equal(answer.headers['content-length'], String(answer.body.length));
        assert.ok(answer.body.length < identity.body.length);
        assert.deepEqual(decode(answer), identity.body);
        assert.equal(answer.headers.vary, key === undefined ? 'Accept-Encoding' : 'X-Api-Key, Accept-Encoding');
        const head = await ask(gateway.url, path, { ...keyHeader, 'Accept-Encoding': coding }, 'HEAD');
        assert.equal(head.body.length, 0);
        for (const name of ['content-encoding', 'content-length', 'vary', 'etag', 'content-type']) assert.equal(head.headers[name], answer.headers[name], name);
      }
      assert.equal(identity.headers.vary, key === undefined ? 'Accept-Encoding' : 'X-Api-Key, Accept-Encoding');
    });
  }

  it('gives each coding its own strong ETag, and answers 304 only for the tag of the coding the request selects, carrying that tag', async () => {
    for (const path of ['/openapi.json', '/api/sample', '/api/dataset/schema', '/api/dataset/export-schema', '/docs']) {
      const identity = await ask(gateway.url, path, { 'Accept-Encoding': 'identity' });
      const tag = String(identity.headers.etag);
      const br = await stored(path, { 'Accept-Encoding': 'br' });
      const gzip = await stored(path, { 'Accept-Encoding': 'gzip' });
      assert.equal(br.headers.etag, `${tag.slice(0, -1)}-br"`);
      assert.equal(gzip.headers.etag, `${tag.slice(0, -1)}-gzip"`);
      const tags = { identity: tag, br: String(br.headers.etag), gzip: String(gzip.headers.etag) };
      for (const [heldCoding, held] of Object.entries(tags)) {
        for (const ifNoneMatch of [held, `W/${held}`, `"other", ${held}`]) {
          for (const accept of ['br', 'gzip', 'identity'] as const) {
            const where = `${path} If-None-Match ${ifNoneMatch}, Accept-Encoding ${accept}`;
            const again = await ask(gateway.url, path, { 'Accept-Encoding': accept, 'If-None-Match': ifNoneMatch });
            assert.equal(again.headers.etag, tags[accept], `${where}: the tag of the representation selected`);
            assert.equal(again.headers.vary, 'Accept-Encoding');
            if (heldCoding === accept) {
              assert.equal(again.status, 304, where);
              assert.equal(again.body.length, 0);
            } else {
              // A copy in another coding is not the one this request selects (the identity bytes a cache
              // stored under a br request): the selected representation is sent.
              assert.equal(again.status, 200, where);
              assert.equal(again.headers['content-encoding'], accept === 'identity' ? undefined : accept, where);
              assert.deepEqual(decode(again), identity.body, where);
            }
          }
        }
      }
      // A list naming several codings: the 304 carries the selected coding's tag, wherever the list has it.
      for (const accept of ['br', 'gzip', 'identity'] as const) {
        const listed = await ask(gateway.url, path, { 'Accept-Encoding': accept, 'If-None-Match': `${tags.identity}, ${tags.gzip}, ${tags.br}` });
        assert.equal(listed.status, 304, `${path} ${accept}`);
        assert.equal(listed.headers.etag, tags[accept], `${path} ${accept}: the selected coding's tag, not the list's first`);
        const any = await ask(gateway.url, path, { 'Accept-Encoding': accept, 'If-None-Match': '*' });
        assert.equal(any.status, 304, `${path} * ${accept}`);
        assert.equal(any.headers.etag, tags[accept], `${path} * ${accept}`);
      }
      // A tag of another document, with a coding suffix, does not match.
      assert.equal((await ask(gateway.url, path, { 'Accept-Encoding': 'br', 'If-None-Match': '"other-br"' })).status, 200);
    }
  });

  it('sends small bodies as they are, without Vary, whatever the client accepts', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const answer = await stored(path, { 'Accept-Encoding': 'br, gzip' });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-encoding'], undefined);
      assert.equal(answer.headers.vary, undefined);
    }
    // Health is computed per request: never compressed (gateway/encoding/compresses-success.ts).
    const health = await stored('/api/dataset/health', { 'Accept-Encoding': 'br, gzip' });
    assert.equal(health.headers['content-encoding'], undefined);
  });

  it('counts the bytes sent by coding on the metrics port', async () => {
    const counted = async () => {
      const text = await (await fetch(`${gateway.gateway.metricsUrl}/metrics`)).text();
      return Object.fromEntries(['br', 'gzip', 'identity'].map((coding) => [coding, Number(new RegExp(`^hra_http_response_bytes_total\\{encoding="${coding}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 'NaN')]));
    };
    const before = await counted();
    const br = await stored('/openapi.json', { 'Accept-Encoding': 'br' });
    const afterBr = await counted();
    assert.ok(afterBr.br !== undefined && before.br !== undefined && afterBr.br - before.br >= br.body.length, 'br bytes counted');
    const identity = await ask(gateway.url, '/openapi.json', { 'Accept-Encoding': 'identity' });
    const afterIdentity = await counted();
    assert.equal((afterIdentity.identity ?? 0) - (afterBr.identity ?? 0), identity.body.length);
    assert.equal(afterIdentity.br, afterBr.br);
  });
});
