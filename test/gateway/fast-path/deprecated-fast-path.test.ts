/**
 * Deprecated routes (spec 9.4) on the fast path against the Koa chain: two real gateways over one snapshot,
 * one key store and one frozen clock, serving the same copy of the route table in which a keyless fast
 * route (`/api/sample`) and two licensed ones (`/api/cities`, `/api/programs/:city/:programId`) are
 * deprecated, one with the fast path and one without. Every answer must match byte for byte (status, the
 * raw header lines in order but Date, body), and so must the log line; the fast path must have answered
 * what it is meant to (200, 304 and 429 of a deprecated route), and every response a deprecated route
 * answers, success or refusal, whichever adapter answered it, carries the three headers with exactly the
 * values of its deprecation.
 */
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Deprecation } from '../../../gateway/pipeline/deprecation-headers.ts';
import type { RouteTable } from '../../../gateway/routes/route-entry.ts';
import { ROUTE_TABLE } from '../../../gateway/routes/route-table.ts';
import { startFastAndKoaGateways, type FastAndKoaGateways, type KeyName } from '../../support/fast-and-koa-gateways.ts';

// Frozen, so both gateways see the same windows and every rate-limit header can be compared exactly.
const NOW = Date.parse('2026-11-24T12:00:30.000Z');

const CURSOR_SECRET = 'deprecated-fast-path-cursor-secret-0001';

// The nonprofit key and the client address run out within the walk, so the fast path's 429s are compared.
const NONPROFIT_PER_MINUTE = 3;
const PUBLIC_PER_MINUTE = 20;
const LIMITS = {
  tiers: { trial: { perMinute: 1_000_000, perDay: 10_000_000 }, nonprofit: { perMinute: NONPROFIT_PER_MINUTE, perDay: 10_000_000 }, commercial: { perMinute: 1_000_000, perDay: 10_000_000 } },
  public: { perMinute: PUBLIC_PER_MINUTE },
};

const SAMPLE_DEPRECATION: Deprecation = { deprecatedAt: new Date('2026-11-01T00:00:00Z'), sunset: new Date('2027-03-01T00:00:00Z'), successor: '/api/v2/sample' };
const LICENSED_DEPRECATION: Deprecation = { deprecatedAt: new Date('2026-10-15T12:00:00Z'), sunset: new Date('2027-02-15T00:00:00Z'), successor: '/api/v2/cities' };
const DEPRECATIONS = new Map<string, Deprecation>([
  ['/api/sample', SAMPLE_DEPRECATION],
  ['/api/cities', LICENSED_DEPRECATION],
  ['/api/programs/:city/:programId', { ...LICENSED_DEPRECATION, successor: '/api/v2/programs/{city}/{programId}' }],
]);

// The header lines each deprecated route must send, written out (RFC 9745 `@` epoch seconds, RFC 8594 http-date).
const EXPECTED_HEADERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['/api/sample', ['Deprecation', '@1793491200', 'Sunset', 'Mon, 01 Mar 2027 00:00:00 GMT', 'Link', '</api/v2/sample>; rel="successor-version"']],
  ['/api/cities', ['Deprecation', '@1792065600', 'Sunset', 'Mon, 15 Feb 2027 00:00:00 GMT', 'Link', '</api/v2/cities>; rel="successor-version"']],
  ['/api/programs/:city/:programId', ['Deprecation', '@1792065600', 'Sunset', 'Mon, 15 Feb 2027 00:00:00 GMT', 'Link', '</api/v2/programs/{city}/{programId}>; rel="successor-version"']],
]);

/** The route table with the deprecations above on a copy of their entries. */
const ROUTES: RouteTable = ROUTE_TABLE.map((route) => {
  const deprecation = DEPRECATIONS.get(route.path);
  return deprecation === undefined ? route : { ...route, deprecation };
});


/** One request of the walk: what it asks, the status it must get, and which adapter must answer it. */
interface Step {
  method: 'GET' | 'HEAD' | 'POST';
  path: string;
  key: KeyName;
  headers?: Record<string, string>;
  status: number;
  via: 'fast' | 'koa';
  /** The route template its log line names. */
  route: string;
}

interface Answer {
  status: number;
  /** Raw header lines, name then value, in the order sent, without Date (the one header that differs by clock). */
  headers: string[];
  body: string;
}

/** A request on a fresh connection, read back as sent on the wire: fetch would sort and merge the headers. */
function ask(url: string, step: Step, key: string | undefined, requestId: string): Promise<Answer> {
  const { hostname, port } = new URL(url);
  const headers = { 'X-Request-ID': requestId, ...(key === undefined ? {} : { 'X-Api-Key': key }), ...step.headers };
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, method: step.method, path: step.path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const lines: string[] = [];
        for (let index = 0; index < response.rawHeaders.length; index += 2) {
          const name = response.rawHeaders[index] ?? '';
          if (name.toLowerCase() !== 'date') lines.push(name, response.rawHeaders[index + 1] ?? '');
        }
        resolve({ status: response.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The Deprecation, Sunset and Link lines of an answer, in the order sent. */
function deprecationLines(answer: Answer): string[] {
  const lines: string[] = [];
  for (let index = 0; index < answer.headers.length; index += 2) {
    const name = answer.headers[index] ?? '';
    if (['deprecation', 'sunset', 'link'].includes(name.toLowerCase())) lines.push(name, answer.headers[index + 1] ?? '');
  }
  return lines;
}

describe('deprecated routes on the fast path', () => {
  let gateways: FastAndKoaGateways;

  before(async () => {
    gateways = await startFastAndKoaGateways({ limits: LIMITS, now: () => NOW, cursorSecret: CURSOR_SECRET, routes: ROUTES });
  });
  after(() => gateways.close());

  it('answers 200, 304 and 429 of a deprecated route itself, exactly as the Koa chain does, with the deprecation headers on every response', async () => {
    const { fast, koa, fastLog, koaLog, keyOf } = gateways;
    const sample = '/api/sample';
    const cities = '/api/cities';
    const record = '/api/programs/:city/:programId';
    let sequence = 0;
    const requestIdOf = () => `deprecated-${String(sequence++).padStart(5, '0')}`;
    const answered: { step: Step; answer: Answer }[] = [];
    /** Asks both gateways; `statuses` are those the answer may have (the step's own unless told). */
    const walk = async (step: Step, statuses: readonly number[] = [step.status]) => {
      const requestId = requestIdOf();
      const viaFast = await ask(fast.url, step, keyOf(step.key), requestId);
      const viaKoa = await ask(koa.url, step, keyOf(step.key), requestId);
      const where = `${step.method} ${step.path} with the ${step.key} key ${JSON.stringify(step.headers ?? {})}`;
      assert.deepEqual(viaFast, viaKoa, where);
      assert.ok(statuses.includes(viaFast.status), `${where}: ${viaFast.status} ${viaFast.body.slice(0, 200)}`);
      answered.push({ step, answer: viaFast });
      return viaFast;
    };

    const first = await walk({ method: 'GET', path: sample, key: 'none', status: 200, via: 'fast', route: sample });
    const etagAt = first.headers.findIndex((name) => name.toLowerCase() === 'etag');
    const etag = first.headers[etagAt + 1];
    assert.ok(etagAt >= 0 && etag !== undefined, 'the sample sends an ETag');
    const steps: Step[] = [
      { method: 'HEAD', path: sample, key: 'none', status: 200, via: 'fast', route: sample },
      { method: 'GET', path: sample, key: 'none', headers: { 'If-None-Match': etag }, status: 304, via: 'fast', route: sample },
      { method: 'HEAD', path: sample, key: 'none', headers: { 'If-None-Match': etag }, status: 304, via: 'fast', route: sample },
      { method: 'GET', path: cities, key: 'commercial', status: 200, via: 'fast', route: cities },
      { method: 'HEAD', path: cities, key: 'commercial', status: 200, via: 'fast', route: cities },
      // Refusals the fast path leaves to Koa: a missing or malformed key, a refused key, a bad parameter.
      { method: 'GET', path: cities, key: 'none', status: 401, via: 'koa', route: cities },
      { method: 'GET', path: cities, key: 'malformed', status: 401, via: 'koa', route: cities },
      { method: 'GET', path: cities, key: 'revoked', status: 403, via: 'koa', route: cities },
      { method: 'GET', path: `${cities}?status=live&status=live`, key: 'commercial', status: 400, via: 'koa', route: cities },
      { method: 'GET', path: '/api/programs/alpha/a-roof', key: 'commercial', status: 200, via: 'fast', route: record },
      { method: 'GET', path: '/api/programs/alpha/missing', key: 'commercial', status: 404, via: 'koa', route: record },
      { method: 'GET', path: '/api/programs/gamma/g-adj', key: 'trial', status: 403, via: 'koa', route: record },
      // Routes that are not deprecated, next to those that are: no deprecation headers.
      { method: 'GET', path: '/api/cities/counts', key: 'commercial', status: 200, via: 'fast', route: '/api/cities/counts' },
      { method: 'GET', path: '/api/programs/alpha', key: 'commercial', status: 200, via: 'fast', route: '/api/programs/:city' },
      { method: 'GET', path: '/api/dataset/schema', key: 'none', status: 200, via: 'fast', route: '/api/dataset/schema' },
      // The nonprofit key spends its minute on the deprecated licensed route: the fast path's 429.
      ...Array.from({ length: NONPROFIT_PER_MINUTE }, (): Step => ({ method: 'GET', path: cities, key: 'nonprofit', status: 200, via: 'fast', route: cities })),
      { method: 'GET', path: cities, key: 'nonprofit', status: 429, via: 'fast', route: cities },
      { method: 'HEAD', path: cities, key: 'nonprofit', status: 429, via: 'fast', route: cities },
    ];
    for (const step of steps) await walk(step);
    // The client address spends its minute on the deprecated keyless route: the fast path's 429 there too.
    for (let asked = 0; ; asked++) {
      assert.ok(asked <= PUBLIC_PER_MINUTE, 'the public window never ran out');
      const { status } = await walk({ method: 'GET', path: sample, key: 'none', status: 200, via: 'fast', route: sample }, [200, 429]);
      if (status === 429) break;
    }
    await walk({ method: 'HEAD', path: sample, key: 'none', status: 429, via: 'fast', route: sample });

    // Every response of a deprecated route carries its three headers, exactly; no other route sends them.
    for (const { step, answer } of answered) {
      const where = `${step.method} ${step.path} (${answer.status})`;
      assert.deepEqual(deprecationLines(answer), EXPECTED_HEADERS.get(step.route) ?? [], where);
    }

    // The log lines agree but for the fast path's own fact, and that fact says who answered each request.
    const stripped = (lines: Record<string, unknown>[]) => lines.map(({ time: _time, durationMs: _ms, pid: _pid, fastPath: _fast, ...rest }) => rest);
    assert.deepEqual(stripped(fastLog.requests()), stripped(koaLog.requests()));
    assert.equal(koaLog.requests().some((line) => line.fastPath !== undefined), false);
    const lines = fastLog.requests();
    assert.equal(lines.length, answered.length);
    answered.forEach(({ step, answer }, index) => {
      const line = lines[index];
      assert.deepEqual([line?.route, line?.status], [step.route, answer.status], `${step.method} ${step.path}`);
      assert.equal(line?.fastPath === true ? 'fast' : 'koa', step.via, `${step.method} ${step.path} (${answer.status}) was answered by the wrong adapter`);
    });
    // The walk reached every status it is meant to compare, on the fast path and on Koa.
    const reached = (via: Step['via']) => [...new Set(answered.filter(({ step }) => step.via === via).map(({ answer }) => answer.status))].sort();
    assert.deepEqual(reached('fast'), [200, 304, 429]);
    assert.deepEqual(reached('koa'), [400, 401, 403, 404]);
  });

  it('leaves what is refused before any route is chosen without them, on both adapters alike', async () => {
    const { fast, koa } = gateways;
    const step: Step = { method: 'POST', path: '/api/sample', key: 'none', status: 405, via: 'koa', route: '/api/sample' };
    const viaFast = await ask(fast.url, step, undefined, 'deprecated-post-0001');
    const viaKoa = await ask(koa.url, step, undefined, 'deprecated-post-0001');
    assert.deepEqual(viaFast, viaKoa);
    assert.equal(viaFast.status, 405);
    assert.deepEqual(deprecationLines(viaFast), []);
  });
});
