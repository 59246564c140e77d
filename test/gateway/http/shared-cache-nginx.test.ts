/**
 * A real shared cache in front of the real gateway: nginx with `proxy_cache` as its documentation shows it
 * (test/support/start-test-nginx.ts). Clients asking the keyless documents through it must each get their
 * own `X-Request-ID` (spec 4.1: the echo of the caller's value) and rate-limit counters, never a stored
 * copy of another caller's, while the bytes stay the gateway's. nginx stores nothing marked `no-cache`; a
 * cache that does, and revalidates, is tested in shared-cache-squid.test.ts.
 * Skips, saying so and counted as skipped, on a machine without nginx; .ci/run installs it and sets
 * HRA_REQUIRE_NGINX=1, which turns that skip into a failure.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { GENEROUS_LIMITS, startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { NGINX, startTestNginx, type TestNginx } from '../../support/start-test-nginx.ts';
import { ask, BEFORE_ANY_COUNTER, counterMark, decoded, header, isLaterCounter, SHARED_ROUTES } from '../../support/shared-cache-client.ts';

const MISSING = existsSync(NGINX) ? undefined : `no nginx at ${NGINX} (apt-get install nginx, or set NGINX_PATH)`;
/** Where nginx must be there (CI), its absence fails the test instead of skipping it. */
const REQUIRED = process.env.HRA_REQUIRE_NGINX === '1';
// The skip sits on each test, not the suite: node:test counts a skipped suite as 0 skipped in its summary.
const SKIP = MISSING !== undefined && !REQUIRED ? MISSING : false;
if (SKIP) console.log(`# shared-cache-nginx: skipped: ${SKIP}`);

const SHARED_PATHS = SHARED_ROUTES.map((route) => route.path);

describe('the keyless documents through nginx proxy_cache', () => {
  let gateway: TestGateway;
  let nginx: TestNginx;

  before(async () => {
    if (MISSING !== undefined) return;
    gateway = await startTestGateway({ limits: GENEROUS_LIMITS });
    nginx = await startTestNginx(gateway.url);
  });
  after(async () => {
    await nginx?.close();
    await gateway?.close();
  });

  it('never gives one client another client\'s X-Request-ID or rate-limit counters, and serves the gateway\'s bytes', { skip: SKIP, timeout: 60_000 }, async () => {
    if (MISSING !== undefined) assert.fail(`${MISSING}; HRA_REQUIRE_NGINX=1 requires it`);
    assert.ok(SHARED_PATHS.includes('/api/sample') && SHARED_PATHS.includes('/openapi.json'), `shared paths: ${SHARED_PATHS.join(', ')}`);
    const seenIds = new Set<string>();
    let lastCounter = BEFORE_ANY_COUNTER;
    for (const path of SHARED_PATHS) {
      const direct = await ask(gateway.url, path, { 'Accept-Encoding': 'identity' });
      let heldTag: string | undefined;
      // Each client asks twice (a cache stores on the first and reuses on the second); B then revalidates
      // the tag A was given, and C sends no id, so the gateway makes one.
      const clients = [
        { id: 'client-a-00000001', accept: 'br, gzip' },
        { id: 'client-b-00000002', accept: 'br, gzip' },
        { id: 'client-a-00000001', accept: 'br, gzip' },
        { id: 'client-b-00000002', accept: 'br, gzip', revalidate: true },
        { id: undefined, accept: 'gzip' },
        { id: undefined, accept: 'identity' },
      ];
      for (const [index, client] of clients.entries()) {
        const headers: Record<string, string> = { 'Accept-Encoding': client.accept };
        if (client.id !== undefined) headers['X-Request-ID'] = client.id;
        if (client.revalidate === true && heldTag !== undefined) headers['If-None-Match'] = heldTag;
        const answer = await ask(nginx.url, path, headers);
        const where = `${path}, request ${index + 1} (${client.id ?? 'no id'}, ${client.accept}${headers['If-None-Match'] ? `, If-None-Match ${headers['If-None-Match']}` : ''}): X-Cache-Status ${header(answer, 'x-cache-status')}`;
        const id = header(answer, 'x-request-id') ?? '';
        if (client.id !== undefined) assert.equal(id, client.id, `${where}: the caller's own request id`);
        else {
          assert.ok(id.length >= 8 && !seenIds.has(id), `${where}: a request id made for this request, not one seen before (${id})`);
        }
        seenIds.add(id);
        // Every request through nginx counts against the one bucket of nginx's address: a counter the
        // gateway computed for this request is below every counter before it; a replayed one is not.
        const counter = counterMark(answer);
        assert.ok(isLaterCounter(counter, lastCounter), `${where}: X-RateLimit-Remaining ${counter.remaining} (window to ${counter.reset}) is this request's, below the previous ${lastCounter.remaining} (window to ${lastCounter.reset}) or in a later window`);
        lastCounter = counter;
        assert.notEqual(header(answer, 'x-cache-status'), 'HIT', `${where}: a stored answer reused without asking the gateway`);
        if (answer.status === 304) {
          assert.equal(answer.body.length, 0);
        } else {
          assert.equal(answer.status, direct.status, where);
          if (answer.status === 200) assert.deepEqual(decoded(answer), direct.body, `${where}: the gateway's bytes`);
        }
        heldTag ??= header(answer, 'etag');
      }
    }
    assert.doesNotMatch(nginx.errorLog(), /\[(error|crit|alert|emerg)\]/, 'nginx logged no error');
  });
});
