/**
 * Property: whatever path arrives (percent-encoded and Unicode slugs, malformed escapes, traversal, `//`,
 * very long segments, control characters, known prefixes with junk), the gateway never answers 5xx,
 * always answers an error as JSON with a `code`, and never serves licensed data without a valid key.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { assertWellBehaved, FUZZ_RUNS, hostilePath, hostileQuery, PROPERTY_TIMEOUT_MS, rawRequest, hostileGateway } from './hostile-support.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';

describe('hostile paths', () => {
  const fuzzed = hostileGateway();

  it(`answers ${FUZZ_RUNS} random paths without a 5xx, with JSON errors, and no licensed body without a key`, { timeout: PROPERTY_TIMEOUT_MS }, async () => {
    let runs = 0;
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        hostilePath,
        fc.option(hostileQuery, { freq: 4 }),
        fc.constantFrom('none', 'bogus', 'commercial', 'trial'),
        fc.constantFrom('GET', 'HEAD'),
        async (path, query, keyKind, method) => {
          runs += 1;
          const key = keyKind === 'none' ? undefined : keyKind === 'bogus' ? 'hra_c_not-a-real-key' : fuzzed.gateway.keys[keyKind];
          const target = query === null ? path : `${path}?${query}`;
          const response = await rawRequest(fuzzed.gateway.url, fuzzed.agent, { method, path: target, headers: key === undefined ? {} : { 'X-Api-Key': key } });
          statuses.add(response.status);
          assertWellBehaved(response, { method, path: target, validKey: keyKind === 'commercial' || keyKind === 'trial' });
        },
      ),
      { numRuns: FUZZ_RUNS },
    );
    assert.ok(runs >= FUZZ_RUNS, `${runs} cases run`);
    for (const status of [200, 400, 401, 404, 414]) assert.ok(statuses.has(status), `the run met a ${status}`);
  });

  it('answers a malformed percent-escape in a city slug with a JSON 400 MALFORMED_URL, not a 500', async () => {
    for (const path of ['/api/programs/%E0%A4%A', '/api/programs/%', '/api/programs/alpha/%C0%AF', '/api/programs/%FF%FE']) {
      const response = await rawRequest(fuzzed.gateway.url, fuzzed.agent, { path, headers: { 'X-Api-Key': fuzzed.gateway.keys.commercial } });
      assert.equal(response.status, 400, path);
      assert.equal((JSON.parse(response.body) as ApiErrorBody).code, 'MALFORMED_URL', path);
    }
  });
});
