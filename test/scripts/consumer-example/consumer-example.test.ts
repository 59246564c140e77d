/**
 * The consumer example (scripts/consumer-example) against the real gateway: its types are what
 * openapi-typescript generates from the served /openapi.json; under a low `--limits` it meets 429s, waits
 * at least `Retry-After` and finishes; with its rate-limit storage (Redis) down it meets 503s and reports a
 * retryable failure, never an empty list. The gateway's clock moves when the client waits, so a minute
 * window resets without the test sleeping.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createApiClient, type RetryNotice } from '../../../scripts/consumer-example/api-client.ts';
import { runExample } from '../../../scripts/consumer-example/example.ts';
import { API_TYPES_FILE, fetchApiTypes } from '../../../scripts/consumer-example/generate-api-types.ts';
import { redisServerSkip, startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';

describe('consumer example: generated types', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway();
  });
  after(async () => gateway.close());

  it('are what openapi-typescript generates from the served /openapi.json', { timeout: 60_000 }, async () => {
    const served = await fetchApiTypes(gateway.url);
    assert.ok(
      served === readFileSync(API_TYPES_FILE, 'utf8'),
      `${API_TYPES_FILE} is not what the served description generates: start a gateway and run npm run --silent consumer-types -- <its URL>`,
    );
  });
});

describe('consumer example under a low rate limit', () => {
  let gateway: TestGateway;
  let clock = Date.now();
  before(async () => {
    // Three licensed requests a minute: the example needs more, so it must wait out the window.
    gateway = await startTestGateway({ now: () => clock, limits: { tiers: { commercial: { perMinute: 3 } } } });
  });
  after(async () => gateway.close());

  /** A client whose waits move the gateway's clock; every wait and retry is recorded. */
  function movingClockClient() {
    const waits: number[] = [];
    const retries: RetryNotice[] = [];
    const client = createApiClient({
      baseUrl: gateway.url,
      apiKey: gateway.keys.commercial,
      random: () => 0.5,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    }, (notice) => retries.push(notice));
    return { client, waits, retries };
  }

  it('meets 429s, waits at least Retry-After with jitter on top, and completes every call', { timeout: 60_000 }, async () => {
    const { client, retries } = movingClockClient();
    const lines: string[] = [];
    const ok = await runExample(client, 'alpha', '2026-01-01', (line) => lines.push(line));
    assert.equal(ok, true, lines.join('\n'));
    assert.ok(retries.length > 0, 'the limit was met');
    for (const retry of retries) {
      assert.equal(retry.status, 429);
      assert.equal(retry.code, 'RATE_LIMITED');
      assert.ok(retry.retryAfterSeconds !== undefined && retry.retryAfterSeconds >= 1, 'the gateway said how long');
      assert.ok(retry.waitedMs >= retry.retryAfterSeconds * 1000, `waited ${retry.waitedMs} ms for Retry-After ${retry.retryAfterSeconds}`);
      assert.ok(retry.waitedMs > retry.retryAfterSeconds * 1000, 'jitter on top, so clients told the same do not return together');
    }
    const text = lines.join('\n');
    assert.match(text, /sample of \w+: \d+ programs\n.*\(not modified: copy reused\)/, 'the second sample fetch was a 304');
    assert.match(text, /available programs in alpha: [1-9]/);
    assert.match(text, /https?:\/\/\S+\n  Verify with .+ before applying or budgeting/, 'cited URL with its warning');
    assert.match(text, /programs in alpha for type no-such-eligibility-type: none \(an empty result, not an error\)/);
    assert.match(text, /changes in alpha since 2026-01-01 \(1 page\(s\)\): [1-9]/);
    assert.doesNotMatch(text, /FAILED/);
  });

  it('pages the change feed to the end, keeping since and city, whatever the page size', { timeout: 60_000 }, async () => {
    const { client } = movingClockClient();
    const whole = await client.allChangesSince('2026-01-01', 'beta', 1000);
    const paged = await client.allChangesSince('2026-01-01', 'beta', 1);
    assert.ok(whole.ok && paged.ok);
    assert.equal(whole.data.pages, 1);
    assert.ok(paged.data.pages > whole.data.changes.length - 1 && paged.data.pages > 1, `${paged.data.pages} pages`);
    assert.deepEqual(paged.data.changes.map((event) => event.id), whole.data.changes.map((event) => event.id));
    assert.ok(paged.data.changes.length > 1 && paged.data.changes.every((event) => event.city === 'beta'), 'city kept on every page');
  });

  it('reconciles change events with the scoped program route, dropping those the key cannot see', { timeout: 60_000 }, async () => {
    const { client } = movingClockClient();
    const feed = await client.allChangesSince('2026-01-01');
    assert.ok(feed.ok);
    const reconciled = await client.reconcileChanges(feed.data.changes);
    assert.ok(reconciled.ok);
    for (const { event, program } of reconciled.data) assert.equal(program?.id, event.programId);
    // What the scoped route serves decides: asked directly, event by event.
    const served: number[] = [];
    for (const event of feed.data.changes) {
      clock += 60_000; // a fresh minute window for each direct request
      const response = await gateway.get(`/api/programs/${event.city}/${event.programId}`, { key: gateway.keys.commercial });
      await response.arrayBuffer();
      if (response.status === 200) served.push(event.id);
    }
    assert.deepEqual(reconciled.data.map(({ event }) => event.id), served);
    assert.ok(served.length < feed.data.changes.length, 'the feed holds an event whose program the key cannot see (a removed record)');
  });
});

describe('consumer example with the rate-limit storage down', { skip: redisServerSkip() }, () => {
  let redis: RedisServer;
  let gateway: TestGateway;
  before(async () => {
    redis = await startRedisServer();
    gateway = await startTestGateway({ flags: { redis: redis.url } });
    await redis.stop();
  });
  after(async () => gateway.close());

  it('meets 503s, retries, and reports a retryable failure, not an empty list', { timeout: 60_000 }, async () => {
    const retries: RetryNotice[] = [];
    const client = createApiClient({ baseUrl: gateway.url, apiKey: gateway.keys.commercial, maxAttempts: 3, sleep: async () => {} }, (notice) => retries.push(notice));
    const programs = await client.listPrograms('alpha');
    assert.equal(programs.ok, false);
    assert.ok(!programs.ok);
    assert.deepEqual(
      { status: programs.failure.status, code: programs.failure.code, retryable: programs.failure.retryable, attempts: programs.failure.attempts },
      { status: 503, code: 'RATE_LIMIT_STORAGE_UNAVAILABLE', retryable: true, attempts: 3 },
    );
    assert.deepEqual(retries.map((retry) => retry.status), [503, 503]);

    const lines: string[] = [];
    const ok = await runExample(client, 'alpha', '2026-01-01', (line) => lines.push(line));
    assert.equal(ok, false);
    const text = lines.join('\n');
    assert.match(text, /sample of \w+: \d+ programs/, 'keyless routes keep serving');
    assert.match(text, /available programs in alpha: FAILED 503 RATE_LIMIT_STORAGE_UNAVAILABLE after 3 attempt\(s\); retryable, try again later/);
    assert.match(text, /changes in alpha since 2026-01-01: FAILED 503 RATE_LIMIT_STORAGE_UNAVAILABLE/);
    assert.doesNotMatch(text, /an empty result/, 'a failure never reads as an empty result');
  });
});

describe('consumer example: compressed conditional GET', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway();
  });
  after(async () => gateway.close());

  it('asks for br, gets it once stored, and revalidates the coding-tagged copy with a 304', { timeout: 60_000 }, async () => {
    const sent: { acceptEncoding: string | null; ifNoneMatch: string | null; status: number; coding: string | null; etag: string | null }[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      sent.push({ acceptEncoding: request.headers.get('accept-encoding'), ifNoneMatch: request.headers.get('if-none-match'), status: response.status, coding: response.headers.get('content-encoding'), etag: response.headers.get('etag') });
      return response;
    };
    const client = createApiClient({ baseUrl: gateway.url, fetch: recordingFetch });
    const first = await client.getCacheable('/openapi.json');
    assert.ok(first.ok);
    await gateway.gateway.encodings.settled();
    // A fresh client holds nothing: its first answer is the stored br form.
    const fresh = createApiClient({ baseUrl: gateway.url, fetch: recordingFetch });
    const compressed = await fresh.getCacheable('/openapi.json');
    assert.ok(compressed.ok && compressed.fromCache === false);
    const again = await fresh.getCacheable('/openapi.json');
    assert.ok(again.ok && again.fromCache === true);
    assert.deepEqual(again.data, first.data);
    assert.ok(sent.every((exchange) => exchange.acceptEncoding === 'br, gzip'));
    const [, brAnswer, revalidation] = sent;
    assert.equal(brAnswer?.coding, 'br');
    assert.match(brAnswer?.etag ?? '', /-br"$/);
    assert.equal(revalidation?.ifNoneMatch, brAnswer?.etag);
    assert.equal(revalidation?.status, 304);
  });
});
