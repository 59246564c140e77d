/**
 * Deprecated operations in the OpenAPI document (spec 9.4). With a copy of the route table in which a keyless
 * route, two licensed ones and a probe are deprecated: each is `deprecated`, every response it answers
 * declares `Deprecation`, `Sunset` and `Link` (components with a description and a schema the values sent
 * match), the responses answered before any operation is chosen declare none, and nothing else in the
 * document changes. The real table's document declares them nowhere. And live: a gateway serving that copy
 * sends each declared deprecation header and declares each header it sends (test/gateway/route-contract.test.ts
 * does the same for the real table).
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildOpenApiDocument } from '../../../gateway/openapi/build-openapi-document.ts';
import { deprecationHeaders, type Deprecation } from '../../../gateway/pipeline/deprecation-headers.ts';
import type { RouteTable } from '../../../gateway/routes/route-entry.ts';
import { ROUTE_TABLE } from '../../../gateway/routes/route-table.ts';
import { MAX_URL_LENGTH } from '../../../gateway/http/request-guards.ts';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { operationOf, resolveRef, type OpenApiDocument } from './openapi-walk.ts';
import { liveResponse, ResponseDeclarations } from './response-declarations.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';

const DEPRECATION: Deprecation = { deprecatedAt: new Date('2026-11-01T00:00:00Z'), sunset: new Date('2027-03-01T00:00:00Z'), successor: '/api/v2/replacement' };

// One route of each access class, a cacheable one (with its 304) and one with its own 404.
const DEPRECATED = ['/api/sample', '/api/cities', '/api/programs/:city/:programId', '/healthz'];
const DEPRECATED_PATHS = ['/api/sample', '/api/cities', '/api/programs/{city}/{programId}', '/healthz'];

/** The route table with `paths` deprecated, on a copy of their entries. */
const deprecating = (paths: readonly string[]): RouteTable => ROUTE_TABLE.map((route) => (paths.includes(route.path) ? { ...route, deprecation: DEPRECATION } : route));

const real = buildOpenApiDocument() as OpenApiDocument;
const doc = buildOpenApiDocument(deprecating(DEPRECATED)) as OpenApiDocument;

const SIGNALS = ['Deprecation', 'Sunset', 'Link'];

// Refused before any operation is chosen: a request Node cannot parse, another method, a slow or oversized request.
const BEFORE_ANY_OPERATION = new Set(['#/components/responses/MalformedRequest', '#/components/responses/MethodNotAllowed', '#/components/responses/RequestTimeout', '#/components/responses/UriTooLong', '#/components/responses/HeadersTooLarge']);

/** The deprecation headers a response declares, by name, each resolved to its component. */
function declaredSignals(document: OpenApiDocument, response: unknown): string[] {
  const resolved = resolveRef(document, response) as { headers?: Record<string, unknown> };
  return Object.keys(resolved.headers ?? {}).filter((name) => SIGNALS.includes(name));
}

/** Every (path, status) of a document whose response declares any deprecation header. */
function declaringResponses(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item.get?.responses ?? {})
    .filter(([, response]) => declaredSignals(document, response).length > 0)
    .map(([status]) => `${path} ${status}`));
}

describe('deprecated operations in the OpenAPI document', () => {
  it('declares the three headers on every response a deprecated operation answers', () => {
    for (const path of DEPRECATED_PATHS) {
      const operation = operationOf(doc, path) as ReturnType<typeof operationOf> & { deprecated?: boolean };
      assert.equal(operation.deprecated, true, path);
      const answered = Object.entries(operation.responses).filter(([, response]) => !BEFORE_ANY_OPERATION.has((response as { $ref?: string }).$ref ?? ''));
      assert.ok(answered.some(([status]) => status === '200'), path);
      for (const [status, response] of answered) {
        assert.deepEqual(declaredSignals(doc, response), SIGNALS, `${path} ${status}`);
        const { headers } = response as { headers: Record<string, unknown> };
        for (const name of SIGNALS) assert.deepEqual(headers[name], { $ref: `#/components/headers/${name}` }, `${path} ${status} ${name}`);
      }
    }
    // The statuses each answers, so a status dropped from the list above would be seen.
    const declaring = new Set(declaringResponses(doc));
    const statusesOf = (path: string) => Object.keys(operationOf(doc, path).responses).filter((status) => declaring.has(`${path} ${status}`)).sort();
    assert.deepEqual(statusesOf('/api/sample'), ['200', '304', '429', '500', '503']);
    assert.deepEqual(statusesOf('/api/cities'), ['200', '400', '401', '403', '429', '500', '503']);
    // Its 400 is only the HTTP server's MALFORMED_REQUEST.
    assert.deepEqual(statusesOf('/api/programs/{city}/{programId}'), ['200', '401', '403', '404', '429', '500', '503']);
    assert.deepEqual(statusesOf('/healthz'), ['200', '500']);
  });

  it('declares none on what is refused before any operation is chosen, nor on any other operation', () => {
    for (const path of DEPRECATED_PATHS) {
      for (const status of ['405', '408', '414', '431']) assert.deepEqual(declaredSignals(doc, operationOf(doc, path).responses[status]), [], `${path} ${status}`);
    }
    // /api/sample's 400 is only the HTTP server's MALFORMED_REQUEST.
    assert.deepEqual(declaredSignals(doc, operationOf(doc, '/api/sample').responses['400']), []);
    const declaring = declaringResponses(doc).map((key) => key.split(' ')[0]);
    assert.deepEqual([...new Set(declaring)].sort(), [...DEPRECATED_PATHS].sort());
    for (const [path, item] of Object.entries(doc.paths)) {
      if (DEPRECATED_PATHS.includes(path)) continue;
      assert.equal('deprecated' in (item.get ?? {}), false, path);
      // Every other operation is exactly the real table's.
      assert.deepEqual(item, real.paths[path], path);
    }
  });

  it('describes each header with a schema that the values the gateway sends match', () => {
    for (const [name, value] of deprecationHeaders(DEPRECATION)) {
      const component = doc.components.headers[name] as { description?: string; schema?: { type?: string; pattern?: string } } | undefined;
      assert.ok(component?.description, name);
      assert.equal(component.schema?.type, 'string', name);
      assert.match(value, new RegExp(component.schema?.pattern ?? '(?!)'), name);
    }
  });

  it('states the deprecations in the versioning section', () => {
    assert.match(doc.info.description, /\*\*Deprecated operations:\*\* `\/api\/sample` \(sunset 2027-03-01\), `\/api\/cities` \(sunset 2027-03-01\), `\/api\/programs\/\{city\}\/\{programId\}` \(sunset 2027-03-01\), `\/healthz` \(sunset 2027-03-01\)\./);
    assert.doesNotMatch(doc.info.description, /No operation is deprecated today/);
  });

  it('leaves out a shared response no operation refers to any more, and keeps every one that still is', () => {
    const everything = buildOpenApiDocument(deprecating(ROUTE_TABLE.map((route) => route.path))) as OpenApiDocument;
    // With every route deprecated, each shared response an operation answers is written out in it: only those
    // answered before any operation is chosen are still referred to.
    assert.deepEqual(Object.keys(everything.components.responses), ['MethodNotAllowed', 'MalformedRequest', 'RequestTimeout', 'UriTooLong', 'HeadersTooLarge']);
    assert.deepEqual(Object.keys(doc.components.responses), Object.keys(real.components.responses));
  });

  it('declares them nowhere in the real table\'s document', () => {
    assert.deepEqual(declaringResponses(real), []);
    for (const name of SIGNALS) assert.equal(name in real.components.headers, false, name);
    for (const [path, item] of Object.entries(real.paths)) assert.equal('deprecated' in (item.get ?? {}), false, path);
    assert.match(real.info.description, /No operation is deprecated today/);
  });
});

describe('deprecated operations, live against their declarations', () => {
  let gateway: TestGateway;
  const declarations = new ResponseDeclarations(doc);
  before(async () => {
    gateway = await startTestGateway({ routes: deprecating(DEPRECATED) });
  });
  after(async () => {
    await gateway.close();
  });

  it('sends every deprecation header it declares and declares every header it sends', async () => {
    const ask = async (path: string, expected: number, options: { key?: string; method?: string; headers?: Record<string, string> } = {}) => {
      const response = await gateway.get(path, options);
      const text = await response.text();
      const where = `${options.method ?? 'GET'} ${path.slice(0, 80)}`;
      assert.equal(response.status, expected, `${where}: ${text.slice(0, 200)}`);
      const body = response.status < 400 || text === '' ? undefined : (JSON.parse(text) as ApiErrorBody);
      assert.ok(declarations.check(path, liveResponse(response, body), where), where);
      return response;
    };
    // One coding for both: a tag revalidates only the coding the request selects.
    const etag = (await ask('/api/sample', 200, { headers: { 'Accept-Encoding': 'identity' } })).headers.get('etag') ?? '';
    await ask('/api/sample', 304, { headers: { 'Accept-Encoding': 'identity', 'If-None-Match': etag } });
    await ask('/api/sample', 405, { method: 'POST' });
    await ask(`/api/sample?pad=${'x'.repeat(MAX_URL_LENGTH)}`, 414);
    await ask('/api/cities', 200, { key: gateway.keys.commercial });
    await ask('/api/cities', 401);
    await ask('/api/cities', 403, { key: gateway.keys.revoked });
    await ask('/api/cities?status=live&status=live', 400, { key: gateway.keys.commercial });
    await ask('/api/programs/alpha/a-roof', 200, { key: gateway.keys.commercial });
    await ask('/api/programs/alpha/missing', 404, { key: gateway.keys.commercial });
    await ask('/api/programs/gamma/g-adj', 403, { key: gateway.keys.trial });
    await ask('/healthz', 200);
    await ask('/api/cities/counts', 200, { key: gateway.keys.commercial });
    // The deprecation headers declared for every (operation, status) seen were sent by some response of it.
    const unsent = declarations.unsent().filter((line) => SIGNALS.some((name) => line.endsWith(`: ${name.toLowerCase()}`)));
    assert.deepEqual(unsent, []);
    assert.ok(declarations.seen().includes('/api/sample 304') && declarations.seen().includes('/api/cities 401'));
  });
});
