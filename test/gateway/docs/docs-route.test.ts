/** `/docs` over HTTP: the page Redoc renders, served keyless, metered, with a strong ETag and a strict policy. */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { strongEtag } from '../../../build/snapshot/write-snapshot.ts';
import { renderDocsPage } from '../../../gateway/docs/docs-page.ts';
import { buildOpenApiDocument } from '../../../gateway/openapi/build-openapi-document.ts';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';

describe('renderDocsPage', () => {
  const bundle = 'window.Redoc = { init() {} };';
  const page = renderDocsPage({ openapi: '3.1.0', info: { description: '</script><script>alert(1)</script>' } }, bundle, 'A <title>');

  it('inlines the document as JSON that cannot close its script element', () => {
    const html = page.body.toString();
    assert.equal(html.match(/<\/script>/g)?.length, 3, 'only the three script elements close');
    const json = /<script type="application\/json" id="openapi-document">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    assert.deepEqual(JSON.parse(json), { openapi: '3.1.0', info: { description: '</script><script>alert(1)</script>' } });
    assert.match(html, /<title>A &lt;title&gt;<\/title>/);
  });

  it('allows exactly its own scripts, by hash, and nothing to load', () => {
    const html = page.body.toString();
    const scripts = [...html.matchAll(/<script>(.*?)<\/script>/gs)].map((match) => match[1]!);
    assert.equal(scripts[0], bundle);
    const hashes = scripts.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    assert.equal(page.contentSecurityPolicy, `default-src 'none'; script-src ${hashes.join(' ')}; style-src 'unsafe-inline'; img-src data:; worker-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    assert.doesNotMatch(page.contentSecurityPolicy, /unsafe-eval|https?:|\*/);
  });

  it('is the same bytes for the same inputs', () => {
    assert.ok(renderDocsPage({ openapi: '3.1.0', info: { description: '</script><script>alert(1)</script>' } }, bundle, 'A <title>').body.equals(page.body));
  });

  it('refuses a bundle it could not inline', () => {
    assert.throws(() => renderDocsPage({}, 'var s = "</script>";', 'x'), /cannot be inlined/);
  });
});

describe('GET /docs', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ limits: { public: { perMinute: 4 } } });
  });
  after(async () => gateway.close());

  it('serves the Redoc page of the served document, keyless and metered, with a strong ETag and a strict policy', async () => {
    // Identity: the tag of the bytes as they are (a compressed form's carries its coding's suffix).
    const response = await gateway.get('/docs', { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    const body = Buffer.from(await response.arrayBuffer());
    assert.equal(response.headers.get('etag'), strongEtag(body));
    assert.equal(response.headers.get('cache-control'), 'public, no-cache');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('x-ratelimit-limit'), '4', 'metered like every keyless route');
    assert.match(response.headers.get('content-security-policy') ?? '', /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+' 'sha256-[A-Za-z0-9+/=]+'; /);
    const html = body.toString();
    const json = /<script type="application\/json" id="openapi-document">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    assert.deepEqual(JSON.parse(json), buildOpenApiDocument(), 'the document /openapi.json serves');
    // The document names its HTML page in its introduction (an externalDocs url would have to be absolute).
    assert.match((buildOpenApiDocument() as { info: { description: string } }).info.description, /`\/docs`, on the host serving this document, serves this description/, '/openapi.json names this page');
    assert.doesNotMatch(html, /https:\/\/cdn\.|fonts\.googleapis|<link|src="http/, 'nothing to fetch');
  });

  it('answers a matching If-None-Match with 304 and no body, then 429 once the public limit is spent', async () => {
    // One coding for both: a tag revalidates only the coding the request selects.
    const etag = (await gateway.get('/docs', { headers: { 'Accept-Encoding': 'identity' } })).headers.get('etag') ?? '';
    const revalidated = await gateway.get('/docs', { headers: { 'Accept-Encoding': 'identity', 'If-None-Match': etag } });
    assert.equal(revalidated.status, 304);
    assert.equal(await revalidated.text(), '');
    // Four requests made by now in this minute window (unless it rolled over between them): the fifth is refused.
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 5 && refused === undefined; attempt += 1) {
      const response = await gateway.get('/docs');
      if (response.status === 429) refused = response;
      else await response.arrayBuffer();
    }
    assert.equal(refused?.status, 429);
    assert.equal(refused?.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal((await refused?.json() as { code: string }).code, 'RATE_LIMITED');
  });

});
