/**
 * Property: any method but GET and HEAD — the standard ones, WebDAV ones and made-up tokens Node's parser
 * has never heard of — on any path, with or without a body, is a JSON 405 `METHOD_NOT_ALLOWED` with
 * `Allow: GET, HEAD`; GET and HEAD obey the usual rules. Never a 5xx, never licensed data without a key.
 */
import * as assert from 'node:assert/strict';
import type { OutgoingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { assertWellBehaved, FUZZ_RUNS, hostilePath, KNOWN_PATHS, PROPERTY_TIMEOUT_MS, rawRequest, hostileGateway } from './hostile-support.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';

const STANDARD = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'];
const EXOTIC = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'SEARCH', 'PURGE', 'LINK', 'UNLINK', 'REPORT', 'MERGE', 'NOTIFY', 'SUBSCRIBE', 'QUERY', 'ACL', 'BIND'];
/** An RFC 9110 token (Node's client sends any), upper-cased by the client; CONNECT has its own test. */
const madeUp = fc.stringMatching(/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,11}$/).filter((token) => token.toUpperCase() !== 'CONNECT');

describe('hostile methods', () => {
  const fuzzed = hostileGateway();

  it(`answers ${FUZZ_RUNS} requests with odd methods with a JSON 405, never a 5xx`, { timeout: PROPERTY_TIMEOUT_MS }, async () => {
    let runs = 0;
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...STANDARD), fc.constantFrom(...EXOTIC), madeUp),
        fc.oneof({ weight: 3, arbitrary: fc.constantFrom<string>(...KNOWN_PATHS) }, { weight: 1, arbitrary: hostilePath }),
        fc.constantFrom('none', 'commercial'),
        fc.option(fc.string({ maxLength: 300 }), { freq: 2 }),
        async (rawMethod, path, keyKind, body) => {
          runs += 1;
          const method = rawMethod.toUpperCase();
          const headers: OutgoingHttpHeaders = keyKind === 'commercial' ? { 'X-Api-Key': fuzzed.gateway.keys.commercial } : {};
          const sendsBody = body !== null && method !== 'GET' && method !== 'HEAD';
          if (sendsBody) headers['Content-Type'] = 'application/json';
          const response = await rawRequest(fuzzed.gateway.url, fuzzed.agent, { method: rawMethod, path, headers, body: sendsBody ? body : undefined });
          assertWellBehaved(response, { method, path, validKey: keyKind === 'commercial' });
          statuses.add(response.status);
          // A hostile path can be refused first (400 malformed, 414 too long); a known one meets the method guard.
          const known = (KNOWN_PATHS as readonly string[]).includes(path);
          if (method !== 'GET' && method !== 'HEAD' && (known || ![400, 414, 431].includes(response.status))) {
            assert.equal(response.status, 405, `${method} ${path}`);
            assert.equal(response.headers.allow, 'GET, HEAD');
            if (method !== 'HEAD') assert.equal((JSON.parse(response.body) as ApiErrorBody).code, 'METHOD_NOT_ALLOWED');
          }
        },
      ),
      { numRuns: FUZZ_RUNS },
    );
    assert.ok(runs >= FUZZ_RUNS, `${runs} cases run`);
    for (const status of [200, 405]) assert.ok(statuses.has(status), `the run met a ${status}`);
  });
});
