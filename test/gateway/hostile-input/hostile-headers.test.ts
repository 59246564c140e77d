/**
 * Property: whatever headers arrive (odd, near-miss, repeated and huge X-Api-Key values; X-Request-ID,
 * If-None-Match and X-Forwarded-For junk), the gateway never answers 5xx, echoes only a safe request id,
 * answers errors as JSON with a `code`, and serves licensed data only when the key is exactly valid.
 * The gateway trusts a proxy here, so X-Forwarded-For junk reaches the public limiter as a client address.
 */
import * as assert from 'node:assert/strict';
import type { OutgoingHttpHeaders } from 'node:http';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { SAFE_REQUEST_ID } from '../../../gateway/http/request-id.ts';
import { assertWellBehaved, FUZZ_RUNS, KNOWN_PATHS, PROPERTY_TIMEOUT_MS, rawRequest, hostileGateway } from './hostile-support.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Characters Node's client accepts in a header value: tab, printable ASCII and Latin-1. */
const headerChar = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: fc.constantFrom('\t') },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code)) },
);
const junk = (maxLength: number) => fc.string({ unit: headerChar, maxLength });
const huge = fc.integer({ min: 4_000, max: 24_000 }).map((length) => 'k'.repeat(length));

/** One way of getting a real key slightly wrong (or, by chance, exactly right: validity is recomputed). */
function nearMiss(key: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(fc.nat({ max: key.length - 1 }), fc.constantFrom(...BASE62)).map(([at, char]) => key.slice(0, at) + char + key.slice(at + 1)),
    fc.nat({ max: key.length - 1 }).map((at) => key.slice(0, at) + key.slice(at + 1)),
    fc.constantFrom(...BASE62).map((char) => key + char),
    fc.nat({ max: key.length - 1 }).map((at) => key.slice(0, at) + (key[at] === key[at]?.toUpperCase() ? key[at]?.toLowerCase() : key[at]?.toUpperCase()) + key.slice(at + 1)),
    fc.constantFrom('hra_t_', 'hra_n_', 'hra_c_', 'hra_x_', 'HRA_C_', '').map((prefix) => prefix + key.slice(6)),
    fc.constantFrom(' ', '\t', '"', '\'', ',', ';').map((pad) => pad + key + pad),
    fc.constant(key.toUpperCase()),
  );
}

type KeyHeader = { value: string | string[] | undefined };

describe('hostile headers', () => {
  const fuzzed = hostileGateway({ flags: { trustProxy: true } });
  let validKeys: Set<string>;
  let sampleEtag: string;
  before(async () => {
    validKeys = new Set([fuzzed.gateway.keys.commercial, fuzzed.gateway.keys.nonprofit, fuzzed.gateway.keys.trial]);
    sampleEtag = String((await rawRequest(fuzzed.gateway.url, fuzzed.agent, { path: '/api/sample' })).headers.etag);
  });

  it(`answers ${FUZZ_RUNS} random header sets without a 5xx, echoing only safe request ids`, { timeout: PROPERTY_TIMEOUT_MS }, async () => {
    const keys = fuzzed.gateway.keys;
    const apiKey: fc.Arbitrary<KeyHeader> = fc.oneof(
      { weight: 2, arbitrary: fc.constant({ value: undefined }) },
      { weight: 2, arbitrary: fc.constantFrom(keys.commercial, keys.nonprofit, keys.trial, keys.revoked, keys.expired).map((value) => ({ value })) },
      { weight: 4, arbitrary: fc.constantFrom(keys.commercial, keys.trial, keys.revoked).chain(nearMiss).map((value) => ({ value })) },
      { weight: 2, arbitrary: junk(80).map((value) => ({ value })) },
      { weight: 1, arbitrary: huge.map((value) => ({ value: `hra_c_${value}` })) },
      { weight: 1, arbitrary: fc.array(fc.constantFrom(keys.commercial, keys.trial, '', 'hra_c_x'), { minLength: 2, maxLength: 3 }).map((value) => ({ value })) },
    );
    // Keys offered as request ids too (a client's or a proxy's mistake): never adopted, never echoed.
    const keyAsId = fc.oneof(
      fc.constantFrom(keys.commercial, keys.trial, keys.revoked, keys.commercial.toUpperCase(), `${keys.nonprofit}.retry-1`),
      // A key shape anywhere in a value that otherwise fits spec 8: behind a prefix, in any letter case.
      fc.tuple(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,20}$/), fc.constantFrom('hra_c_', 'HRA_T_', 'hRa_n_', `hra_c_${keys.commercial}`, keys.trial), fc.stringMatching(/^[A-Za-z0-9._:-]{0,20}$/))
        .map(([before, shape, after]) => `${before}${shape}${after}`),
    );
    const requestId = fc.option(fc.oneof(fc.stringMatching(SAFE_REQUEST_ID), keyAsId, junk(100), huge), { freq: 3 });
    const ifNoneMatch = fc.option(fc.oneof(fc.constantFrom('*', 'W/"x"', '""', '"', 'W/', ',,,', sampleEtag, `W/${sampleEtag}`, `"a", ${sampleEtag}`), junk(60), huge), { freq: 2 });
    const forwardedFor = fc.option(fc.oneof(fc.constantFrom('1.2.3.4', '::1', '1.2.3.4, 5.6.7.8', 'unknown', ',', '999.999.999.999', '[::1]:80'), junk(60), huge), { freq: 2 });
    let runs = 0;
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...KNOWN_PATHS), apiKey, requestId, ifNoneMatch, forwardedFor, fc.constantFrom('GET', 'HEAD'), async (path, key, offeredId, etag, forwarded, method) => {
        runs += 1;
        const headers: OutgoingHttpHeaders = {};
        if (key.value !== undefined) headers['X-Api-Key'] = key.value;
        if (offeredId !== null) headers['X-Request-ID'] = offeredId;
        if (etag !== null) headers['If-None-Match'] = etag;
        if (forwarded !== null) headers['X-Forwarded-For'] = forwarded;
        const response = await rawRequest(fuzzed.gateway.url, fuzzed.agent, { method, path, headers });
        statuses.add(response.status);
        // Node joins repeated headers with ", " and strips surrounding spaces and tabs, as the gateway reads it.
        const received = Array.isArray(key.value) ? key.value.map((part) => part.trim()).join(', ') : key.value?.replace(/^[ \t]+|[ \t]+$/g, '');
        assertWellBehaved(response, { method, path, validKey: received !== undefined && validKeys.has(received), offeredRequestId: offeredId ?? undefined });
      }),
      { numRuns: FUZZ_RUNS },
    );
    assert.ok(runs >= FUZZ_RUNS, `${runs} cases run`);
    for (const status of [200, 304, 401, 403, 431]) assert.ok(statuses.has(status), `the run met a ${status}`);
  });
});
