import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { strongEtag } from '../../../build/snapshot/write-snapshot.ts';
import { buildOpenApiDocument } from '../../../gateway/openapi/build-openapi-document.ts';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { operationOf, resolveRef, responseCodes, templateOf, type OpenApiDocument } from './openapi-walk.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const doc = buildOpenApiDocument() as OpenApiDocument;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
// Response schemas `$ref` the document's components; give ajv the document under an id to resolve them.
const DOC_ID = 'urn:hra:openapi';
ajv.addSchema({ $id: DOC_ID, components: { schemas: doc.components.schemas } });
const rebase = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`));

/** The documented path template a concrete path is served under; fails for an undocumented one. */
function documentedTemplate(path: string): string {
  const template = templateOf(doc, path);
  if (!template) throw new Error(`no documented path serves ${path}`);
  return template;
}

interface DocumentedResponse {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: unknown }>;
}

/** Asserts that a live response is one the document describes: status, required headers, header values, body. */
async function assertDocumented(path: string, response: Response): Promise<void> {
  const where = `${path} -> ${response.status}`;
  const operation = operationOf(doc, documentedTemplate(path));
  const documented = operation.responses[String(response.status)];
  assert.ok(documented, `${where} is not documented`);
  const resolved = resolveRef(doc, documented) as DocumentedResponse;
  for (const [name, ref] of Object.entries(resolved.headers ?? {})) {
    const header = resolveRef(doc, ref) as { required?: boolean; schema: { type?: string } };
    const value = response.headers.get(name);
    if (value === null) {
      assert.ok(!header.required, `${where} lacks required header ${name}`);
      continue;
    }
    const validate = ajv.compile(header.schema);
    assert.ok(validate(header.schema.type === 'integer' ? Number(value) : value), `${where} header ${name}: ${value}`);
  }
  const text = await response.text();
  const schema = resolved.content?.['application/json']?.schema;
  if (schema === undefined) {
    assert.equal(text, '', `${where} has a body it does not document`);
    return;
  }
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = JSON.parse(text) as ApiErrorBody;
  const validate = ajv.compile(rebase(schema) as object);
  assert.ok(validate(body), `${where} body: ${JSON.stringify(validate.errors, null, 1)}`);
  if (response.status >= 400) assert.ok(responseCodes(doc, documented).includes(body.code ?? ''), `${where} code ${body.code} is not documented`);
}

describe('GET /openapi.json', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway();
  });
  after(async () => gateway.close());

  it('serves the built document with a strong ETag of the snapshot documents\' form', async () => {
    // Identity: the tag of the bytes as they are (a compressed form's carries its coding's suffix).
    const response = await gateway.get('/openapi.json', { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(response.status, 200);
    const body = Buffer.from(await response.arrayBuffer());
    assert.equal(body.toString(), JSON.stringify(buildOpenApiDocument()));
    assert.equal(response.headers.get('etag'), strongEtag(body));
    assert.equal(response.headers.get('cache-control'), 'public, no-cache');
    assert.ok(response.headers.get('x-ratelimit-limit'), 'metered like every keyless route');
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    // Identity throughout: a tag revalidates only the coding it names (test/gateway/encoding/compressed-responses.test.ts).
    const identity = { 'Accept-Encoding': 'identity' };
    const etag = (await gateway.get('/openapi.json', { headers: identity })).headers.get('etag') ?? '';
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await gateway.get('/openapi.json', { headers: { ...identity, 'If-None-Match': ifNoneMatch } });
      assert.equal(response.status, 304, ifNoneMatch);
      assert.equal(response.headers.get('etag'), etag);
      assert.equal(await response.text(), '');
    }
    assert.equal((await gateway.get('/openapi.json', { headers: { ...identity, 'If-None-Match': '"other"' } })).status, 200);
  });

  it('describes what the real gateway sends on every route (status, headers, body, code)', async () => {
    const { keys } = gateway;
    const cases: ReadonlyArray<[string, { key?: string; method?: string; headers?: Record<string, string> }?]> = [
      ['/api/sample'], ['/api/dataset/health'], ['/api/data/readiness'], ['/api/dataset/schema'], ['/api/dataset/export-schema'],
      ['/openapi.json'], ['/api/dataset/reports/fact-audit-latest'], ['/api/dataset/reports/fact-audit-legacy-2026-06-17'],
      ['/api/dataset/reports/state-home-improvement-2026'], ['/api/cities', { method: 'POST' }],
      ['/api/cities', { key: keys.commercial }], ['/api/cities', { key: keys.trial }], ['/api/cities'],
      ['/api/cities', { key: 'hra_not_a_key' }], ['/api/cities', { key: keys.revoked }], ['/api/cities', { key: keys.expired }],
      ['/api/cities?status=live&status=paused', { key: keys.commercial }], ['/api/cities/counts', { key: keys.nonprofit }],
      ['/api/programs', { key: keys.commercial }], ['/api/programs?status=bogus', { key: keys.commercial }],
      ['/api/programs/alpha?type=homeowner', { key: keys.commercial }], ['/api/programs/delta', { key: keys.commercial }],
      ['/api/programs/gamma', { key: keys.trial }], ['/api/programs/national', { key: keys.commercial }],
      ['/api/programs/national', { key: keys.trial }], ['/api/programs/alpha/a-roof', { key: keys.commercial }],
      ['/api/programs/alpha/a-quar', { key: keys.commercial }], ['/api/changes?since=2026-01-01', { key: keys.commercial }],
      ['/api/changes', { key: keys.commercial }], ['/api/changes?since=2026-01-01&limit=0', { key: keys.commercial }],
      ['/api/changes?since=2026-01-01', { key: keys.trial }], ['/api/changes?since=2026-01-01&city=Bad', { key: keys.commercial }],
      ['/api/changes?since=2026-01-01&city=delta', { key: keys.commercial }], ['/api/changes?since=2026-01-01&cursor=x', { key: keys.commercial }],
    ];
    const seen = new Set<string>();
    for (const [path, options] of cases) {
      const response = await gateway.get(path, options);
      seen.add(String(response.status));
      await assertDocumented(path, response);
    }
    assert.deepEqual([...seen].sort(), ['200', '400', '401', '403', '404', '405', '503']);
  });
});

describe('GET /openapi.json under the public request limit', () => {
  let gateway: TestGateway;
  const dir = makeTempDir('hra-openapi-limits-');
  before(async () => {
    const limits = join(dir, 'limits.json');
    writeFileSync(limits, JSON.stringify({ public: { perMinute: 2 } }));
    gateway = await startTestGateway({ flags: { limits } });
  });
  after(async () => {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is metered per client address and answers 429 RATE_LIMITED with Retry-After when exhausted', async () => {
    assert.equal((await gateway.get('/openapi.json')).status, 200);
    assert.equal((await gateway.get('/openapi.json')).status, 200);
    const refused = await gateway.get('/openapi.json');
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    await assertDocumented('/openapi.json', refused);
  });
});
