/**
 * One URL per resource (issue 24 item 2): a route's fixed path words match exactly as the route table writes
 * them, and without a trailing slash; every other spelling is the 404 of an unknown path, so no cache holds
 * one resource under two keys. A request target with a malformed percent-escape, in the path or the query,
 * is a 400 `MALFORMED_URL`. Walked over every route of the table, on the fast path and through Koa alone,
 * which must answer byte for byte alike.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ROUTE_TABLE } from '../../gateway/routes/route-table.ts';
import { examplePath } from '../support/route-examples.ts';
import { startFastAndKoaGateways, type FastAndKoaGateways } from '../support/fast-and-koa-gateways.ts';
import { GENEROUS_LIMITS } from '../support/start-test-gateway.ts';

// Frozen, so both gateways see the same rate-limit windows and their headers compare exactly.
const NOW = Date.parse('2026-11-21T12:00:30.000Z');

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

/** `path` with every fixed word of `template` (not its parameters) changed by `change`. */
function withFixedWords(template: string, path: string, change: (word: string) => string): string {
  const templateSegments = template.split('/');
  return path.split('/').map((segment, index) => (templateSegments[index]?.startsWith(':') ? segment : change(segment))).join('/');
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The spellings of one route's example path that name no resource: case variants and a trailing slash. */
function variantsOf(template: string, path: string): string[] {
  const variants = [
    withFixedWords(template, path, (word) => word.toUpperCase()),
    withFixedWords(template, path, capitalized),
    `${path}/`,
    `${withFixedWords(template, path, capitalized)}/`,
  ];
  return [...new Set(variants)].filter((variant) => variant !== path);
}

describe('one URL per resource', () => {
  let gateways: FastAndKoaGateways;
  let sequence = 0;

  before(async () => {
    gateways = await startFastAndKoaGateways({ limits: GENEROUS_LIMITS, now: () => NOW, cursorSecret: 'canonical-urls-cursor-secret-000001' });
  });
  after(() => gateways.close());

  /** Asks both gateways the same request with the same request id; asserts they answer alike and returns the answer. */
  async function askBoth(target: string, method: string): Promise<Answer> {
    const requestId = `canonical-${String(sequence++).padStart(5, '0')}`;
    // identity: fetch asks for gzip by default, and a body's compressed form is stored in the background after
    // its first request, so it could be ready on one gateway and not yet on the other between the two asks.
    // URL canonicalization is what is compared here; encoded answers are tested in test/gateway/encoding/.
    const headers = { 'X-Request-ID': requestId, 'X-Api-Key': gateways.keyOf('commercial') ?? '', 'Accept-Encoding': 'identity' };
    const answers: Answer[] = [];
    for (const base of [gateways.fast.url, gateways.koa.url]) {
      const response = await fetch(`${base}${target}`, { method, headers });
      const sorted = [...response.headers.entries()].filter(([name]) => name !== 'date').sort(([a], [b]) => a.localeCompare(b));
      answers.push({ status: response.status, headers: sorted, body: await response.text() });
    }
    assert.deepEqual(answers[0], answers[1], `${method} ${target}: the fast path and Koa differ`);
    return answers[0]!;
  }

  for (const route of ROUTE_TABLE) {
    const path = examplePath(route);
    const query = examplePath(route, { withRequiredQuery: true }).slice(path.length);
    it(`${route.path}: only ${path} names it; case variants and a trailing slash are 404`, async () => {
      for (const method of ['GET', 'HEAD']) {
        const canonical = await askBoth(`${path}${query}`, method);
        assert.notEqual(canonical.status, 404, `${method} ${path}${query} must name its resource`);
        const variants = variantsOf(route.path, path);
        assert.ok(variants.length >= 3, `${path} has case and slash variants`);
        for (const variant of variants) {
          const answer = await askBoth(`${variant}${query}`, method);
          assert.equal(answer.status, 404, `${method} ${variant}${query}`);
          const header = new Map(answer.headers);
          assert.equal(header.get('etag'), undefined, `${variant} carries no ETag`);
          assert.equal(header.get('x-dataset-revision'), undefined, `${variant} is an error, not the resource`);
          if (method === 'GET') assert.equal((JSON.parse(answer.body) as { code: string }).code, 'NOT_FOUND', variant);
        }
      }
    });
  }

  it('answers a malformed percent-escape in the path or the query with 400 MALFORMED_URL', async () => {
    const targets = [
      '/api/programs/alpha?type=%ZZ', '/api/programs?type=%', '/api/programs/%E0%A4%A', '/api/programs/alpha/%C0%AF', '/api/programs/%FF%FE',
      '/api/sample?utm=%4', '/openapi.json?%', '/api/changes?since=2026-01-01&city=%E0%A4', '/healthz?probe=%G0', '/no/such/%ZZ',
    ];
    for (const target of targets) {
      for (const method of ['GET', 'HEAD']) {
        const answer = await askBoth(target, method);
        assert.equal(answer.status, 400, `${method} ${target}`);
        if (method === 'GET') assert.equal((JSON.parse(answer.body) as { code: string }).code, 'MALFORMED_URL', target);
      }
    }
  });

  it('still serves well-formed escapes, those of UTF-8 included', async () => {
    for (const target of ['/api/programs/alpha?type=%20grant%20', '/api/programs/al%70ha', '/api/programs/alpha?project=caf%C3%A9']) {
      assert.equal((await askBoth(target, 'GET')).status, 200, target);
    }
  });
});
