/**
 * A real shared cache that stores the keyless documents: Squid as an accelerator in front of the real
 * gateway (test/support/start-test-squid.ts). It stores a `no-cache` answer, revalidates it with the
 * gateway before each reuse, and serves the stored bytes with the headers of the gateway's 304 (RFC 9111
 * 4.3.4): each client gets its own `X-Request-ID` and rate-limit counters, and the cache still saves the
 * gateway the body. Skips, saying so and counted as skipped, on a machine without Squid; .ci/run installs
 * it and sets HRA_REQUIRE_SQUID=1, which turns that skip into a failure.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { GENEROUS_LIMITS, startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { SQUID, startTestSquid, type TestSquid } from '../../support/start-test-squid.ts';
import { ask, BEFORE_ANY_COUNTER, counterMark, decoded, header, isLaterCounter, SHARED_ROUTES } from '../../support/shared-cache-client.ts';

const MISSING = existsSync(SQUID) ? undefined : `no squid at ${SQUID} (apt-get install squid, or set SQUID_PATH)`;
/** Where Squid must be there (CI), its absence fails the test instead of skipping it. */
const REQUIRED = process.env.HRA_REQUIRE_SQUID === '1';
// The skip sits on the test, not the suite: node:test counts a skipped suite as 0 skipped in its summary.
const SKIP = MISSING !== undefined && !REQUIRED ? MISSING : false;
if (SKIP) console.log(`# shared-cache-squid: skipped: ${SKIP}`);

describe('the keyless documents through a Squid accelerator', () => {
  let gateway: TestGateway;
  let squid: TestSquid;

  before(async () => {
    if (MISSING !== undefined) return;
    gateway = await startTestGateway({ limits: GENEROUS_LIMITS });
    squid = await startTestSquid(gateway.url);
  });
  after(async () => {
    await squid?.close();
    await gateway?.close();
  });

  it('stores them, revalidates each reuse, and gives each client its own request id and counters', { skip: SKIP, timeout: 60_000 }, async () => {
    if (MISSING !== undefined) assert.fail(`${MISSING}; HRA_REQUIRE_SQUID=1 requires it`);
    const seenIds = new Set<string>();
    let lastCounter = BEFORE_ANY_COUNTER;
    const clients = [{ id: 'client-a-00000001' }, { id: 'client-b-00000002' }, { id: undefined }, { id: 'client-a-00000001' }];
    for (const route of SHARED_ROUTES) {
      const direct = await ask(gateway.url, route.path, { 'Accept-Encoding': 'br, gzip' });
      if (direct.status !== 200) continue;
      for (const [index, client] of clients.entries()) {
        const answer = await ask(squid.url, route.path, { 'Accept-Encoding': 'br, gzip', ...(client.id === undefined ? {} : { 'X-Request-ID': client.id }) });
        const where = `${route.path}, request ${index + 1} (${client.id ?? 'no id'}): X-Cache ${header(answer, 'x-cache')}`;
        assert.equal(answer.status, 200, where);
        const id = header(answer, 'x-request-id') ?? '';
        if (client.id !== undefined) assert.equal(id, client.id, `${where}: the caller's own request id`);
        else assert.ok(id.length >= 8 && !seenIds.has(id), `${where}: a request id made for this request (${id})`);
        seenIds.add(id);
        // Every request through Squid counts against the bucket of its address: the counter of a request
        // the gateway saw (a revalidation included) is below every counter before it; a stored one is not.
        const counter = counterMark(answer);
        assert.ok(isLaterCounter(counter, lastCounter), `${where}: X-RateLimit-Remaining ${counter.remaining} (window to ${counter.reset}) is this request's, below the previous ${lastCounter.remaining} (window to ${lastCounter.reset}) or in a later window`);
        lastCounter = counter;
        assert.deepEqual(decoded(answer), decoded(direct), `${where}: the gateway's bytes`);
        // The ETag documents are served from the store once it holds them: the gateway answered 304.
        if (route.caching === 'cacheable' && index > 0) assert.match(header(answer, 'x-cache') ?? '', /^HIT /, `${where}: served from the store`);
      }
    }
    // Each reuse of an ETag document was a revalidation the gateway answered 304, not a second body.
    const log = squid.accessLog();
    for (const route of SHARED_ROUTES.filter((candidate) => candidate.caching === 'cacheable')) {
      const outcomes = log.split('\n').filter((line) => line.includes(` http://gateway${route.path} `)).map((line) => line.split(/\s+/)[3]);
      assert.deepEqual(outcomes, ['TCP_MISS/200', ...Array.from({ length: clients.length - 1 }, () => 'TCP_REFRESH_UNMODIFIED/200')], `${route.path}: ${outcomes.join(', ')}`);
    }
  });
});
