/**
 * Property: whatever query string arrives (huge values, repeated and unknown parameters, array and
 * object spellings, encoded junk), on every route and with every kind of key, the gateway never answers
 * 5xx, answers errors as JSON with a `code`, and serves licensed data only to a valid key.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { assertWellBehaved, FUZZ_RUNS, hostileQuery, KNOWN_PATHS, PROPERTY_TIMEOUT_MS, rawRequest, hostileGateway } from './hostile-support.ts';

describe('hostile query strings', () => {
  const fuzzed = hostileGateway();

  it(`answers ${FUZZ_RUNS} random query strings on every route without a 5xx`, { timeout: PROPERTY_TIMEOUT_MS }, async () => {
    let runs = 0;
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...KNOWN_PATHS),
        hostileQuery,
        // Valid keys most of the time: the query reaches the parsers only past the key check.
        fc.constantFrom('commercial', 'commercial', 'nonprofit', 'trial', 'none', 'revoked'),
        async (path, query, keyKind) => {
          runs += 1;
          const key = keyKind === 'none' ? undefined : fuzzed.gateway.keys[keyKind];
          const response = await rawRequest(fuzzed.gateway.url, fuzzed.agent, { path: `${path}?${query}`, headers: key === undefined ? {} : { 'X-Api-Key': key } });
          statuses.add(response.status);
          assertWellBehaved(response, { method: 'GET', validKey: keyKind === 'commercial' || keyKind === 'nonprofit' || keyKind === 'trial' });
        },
      ),
      { numRuns: FUZZ_RUNS },
    );
    assert.ok(runs >= FUZZ_RUNS, `${runs} cases run`);
    for (const status of [200, 400, 403]) assert.ok(statuses.has(status), `the run met a ${status}`);
  });
});
