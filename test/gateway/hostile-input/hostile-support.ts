/**
 * Shared pieces of the hostile-input properties: a raw node:http client (fetch refuses much of what is
 * sent here), the checks every response must pass, and the generators of hostile requests.
 */
import * as assert from 'node:assert/strict';
import { Agent, request, type OutgoingHttpHeaders } from 'node:http';
import { after, before } from 'node:test';
import fc from 'fast-check';
import { isSafeRequestId, SAFE_REQUEST_ID } from '../../../gateway/http/request-id.ts';
import { GENEROUS_LIMITS, startTestGateway, type TestGateway, type TestGatewayOptions } from '../../support/start-test-gateway.ts';
import { examplePaths } from '../../support/route-examples.ts';

/** Cases per property: at least 2,000 (issue 7); `HRA_FUZZ_RUNS` raises it for a longer local run. */
export const FUZZ_RUNS = Math.max(2_000, Number(process.env.HRA_FUZZ_RUNS ?? 0) || 0);

/** Time allowed for one property's whole run, including shrinking after a failure. */
export const PROPERTY_TIMEOUT_MS = 120_000;

/** A response as read off the wire. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with node:http over a keep-alive agent; rejects only on a transport error. */
export function rawRequest(base: string, agent: Agent, input: { method?: string; path: string; headers?: OutgoingHttpHeaders; body?: string }): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, method: input.method ?? 'GET', path: input.path, headers: input.headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(input.body);
  });
}

/** A keep-alive agent with one socket, so a property runs its requests back to back on one connection. */
export const keepAliveAgent = () => new Agent({ keepAlive: true, maxSockets: 1 });

const header = (response: RawResponse, name: string): string => {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
};

/** Whether a JSON body is a licensed document: a city collection, the city index or counts, the change feed, or a program record. */
export function isLicensedBody(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  if ('programs' in record && record.sample !== true) return true;
  if ('cities' in record) return true;
  if ('changes' in record && 'snapshotMaxId' in record) return true;
  return 'freshness' in record && 'url' in record;
}

/** What a request told the check: whether it carried a valid key, what X-Request-ID it offered, its method. */
export interface SentRequest {
  method: string;
  validKey: boolean;
  offeredRequestId?: string;
  /** The request target, for a HEAD answer that has no body to read. */
  path?: string;
}

/**
 * The rules every response obeys, whatever was sent: never a 5xx (but the spec'd 503 of an artifact the
 * served revision lacks); an X-Request-ID that is the safe
 * offered one or a generated safe one; every answer but 2xx and 304 a JSON error with `error` and `code`;
 * no licensed body (and no licensed caching) without a valid key.
 */
export function assertWellBehaved(response: RawResponse, sent: SentRequest): void {
  const context = `${sent.method} -> ${response.status} ${response.body.slice(0, 200)}`;
  // The mini corpus lacks some report artifacts: their spec'd 503 is the data's state, not a failure.
  const missingArtifact = response.status === 503
    && (sent.method === 'HEAD' ? (sent.path ?? '').includes('/api/dataset/reports/') : /"code":"ARTIFACT_UNAVAILABLE"/.test(response.body));
  assert.ok((response.status >= 200 && response.status < 500) || missingArtifact, `never a 5xx: ${context}`);
  const requestId = header(response, 'x-request-id');
  assert.match(requestId, SAFE_REQUEST_ID, `X-Request-ID present and safe: ${context}`);
  // Refusals of the HTTP layer (Connection: close) come before any header is read, so they cannot echo.
  // An offered id shaped like a key is never adopted: the secret would reach the log and the response.
  if (sent.offeredRequestId !== undefined && !isSafeRequestId(sent.offeredRequestId)) assert.notEqual(requestId, sent.offeredRequestId, `an unsafe X-Request-ID is replaced: ${context}`);
  // Checked apart from isSafeRequestId, so that a filter too narrow fails here: no key's start anywhere, any case.
  assert.doesNotMatch(requestId, /hra_[tnc]_/i, `no key shape in the X-Request-ID echoed: ${context}`);
  if (sent.offeredRequestId !== undefined && isSafeRequestId(sent.offeredRequestId) && header(response, 'connection') !== 'close') {
    assert.equal(requestId, sent.offeredRequestId, `a safe X-Request-ID is echoed: ${context}`);
  }
  const isError = !(response.status >= 200 && response.status < 300) && response.status !== 304;
  if (isError) {
    assert.match(header(response, 'content-type'), /^application\/json/, `errors are JSON: ${context}`);
    if (sent.method !== 'HEAD') {
      const body = JSON.parse(response.body) as Record<string, unknown>;
      assert.equal(typeof body.error, 'string', `error message: ${context}`);
      assert.equal(typeof body.code, 'string', `error code: ${context}`);
    }
  }
  if (!sent.validKey) {
    assert.notEqual(header(response, 'cache-control'), 'private, no-store', `no licensed response without a valid key: ${context}`);
    // `/docs` is the one success that is not JSON: an HTML page, never a licensed body.
    const html = /^text\/html/.test(header(response, 'content-type'));
    if (!isError && response.body !== '' && !html) assert.equal(isLicensedBody(JSON.parse(response.body)), false, `no licensed body without a valid key: ${context}`);
  }
}

/**
 * Every metered route the gateway serves, as concrete paths (licensed ones need a key), from the route
 * table; plus a city outside the trial key's scope and a federal record.
 */
export const KNOWN_PATHS: readonly string[] = [...examplePaths('public'), ...examplePaths('licensed'), '/api/programs/gamma', '/api/programs/national/usda-504'];

/** Percent-encodes the UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD, as on any real client). */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

const hex = fc.constantFrom(...'0123456789abcdefABCDEF');
/** Characters Node's client sends raw in a path (no space, no control character, Latin-1 at most). */
const rawPathChar = fc.oneof(
  fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_.~!$&\'()*+,;=:@%'),
  fc.integer({ min: 0xa1, max: 0xff }).map((code) => String.fromCharCode(code)),
);

/** One hostile path segment. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '.', '..', '%2e%2e', '%2E%2E%2F', '..%2f..%2f', '%2f', '%5c', '..\\..', 'alpha', 'national', 'a-roof', 'counts', 'usda-504', '%E0%A4%A', '%C0%AF', '%FF', '%', '%%', '%u0041'),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map(percentEncode),
  fc.string({ unit: 'binary', maxLength: 8 }).map(percentEncode),
  fc.integer({ min: 0, max: 0x1f }).map((code) => `%${code.toString(16).padStart(2, '0')}`),
  fc.tuple(fc.constant('%'), fc.array(hex, { maxLength: 2 })).map(([percent, digits]) => percent + digits.join('')),
  fc.string({ unit: rawPathChar, maxLength: 24 }),
  fc.integer({ min: 200, max: 10_000 }).map((length) => 'x'.repeat(length)),
);

/** Whole hostile paths: a known prefix (or none), junk segments, doubled slashes, sometimes absolute-form. */
export const hostilePath: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom('', '/api', '/api/programs', '/api/cities', '/api/changes', '/api/dataset', '/api/dataset/reports', ...KNOWN_PATHS), fc.array(hostileSegment, { maxLength: 4 }), fc.boolean())
    .map(([prefix, segments, trailing]) => `${prefix}/${segments.join('/')}${trailing ? '/' : ''}`) },
  { weight: 1, arbitrary: fc.constantFrom('*', '//api/programs/alpha', '/api//programs//alpha', 'http://evil.example/api/programs/alpha', '/API/PROGRAMS/ALPHA', '/api/programs/alpha;x=1', '/api/programs/alpha#frag', '/./api/./cities', '/api/programs/../cities') },
);

/** A hostile query value: empty, junk, percent junk, Unicode, or huge. */
export const hostileValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', 'available', 'closed', 'low', 'any', 'hvac', 'alpha', 'gamma', '2026-01-01', '2026-02-30', '0', '-1', '1000', '1001', '1e3', 'NaN', 'null', '%', '%E0%A4%A', '%00', '__proto__', 'constructor'),
  fc.string({ maxLength: 20 }).map(percentEncode),
  fc.string({ unit: 'grapheme', maxLength: 10 }).map(percentEncode),
  fc.string({ unit: rawPathChar, maxLength: 20 }).map((text) => text.replaceAll('&', '').replaceAll('#', '')),
  fc.integer({ min: 200, max: 7_000 }).map((length) => 'v'.repeat(length)),
);

/** A query-string name: every parameter the routes read, array and object spellings, and unknown ones. */
export const hostileName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('status', 'income', 'type', 'project', 'special', 'category', 'since', 'limit', 'cursor', 'city', 'q', 'page', '__proto__', 'constructor', 'toString', 'hasOwnProperty'),
  fc.constantFrom('status[]', 'city[0]', 'since[]', 'limit[a]', 'type[][]', 'status.x'),
  fc.string({ minLength: 1, maxLength: 8 }).map(percentEncode),
);

/** A whole query string: repeated and unknown parameters, bare names, stray separators. */
export const hostileQuery: fc.Arbitrary<string> = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(hostileName, hostileValue).map(([name, value]) => `${name}=${value}`) },
    { weight: 1, arbitrary: hostileName },
    { weight: 1, arbitrary: fc.constantFrom('', '=', '==', '&', '=x') },
  ),
  { maxLength: 12 },
).map((pairs) => pairs.join('&'));

/** The gateway and keep-alive agent one describe block fuzzes; set by its `before` hook. */
export interface HostileTarget {
  gateway: TestGateway;
  agent: Agent;
}

/**
 * Registers the describe block's hooks: starts a gateway whose limiter never rejects (every request still
 * metered) and a keep-alive agent before its tests, closes both after. Read the fields inside tests.
 */
export function hostileGateway(options: TestGatewayOptions = {}): HostileTarget {
  const target = {} as HostileTarget;
  before(async () => {
    target.gateway = await startTestGateway({ limits: GENEROUS_LIMITS, ...options });
    target.agent = keepAliveAgent();
  });
  after(async () => {
    target.agent.destroy();
    await target.gateway.close();
  });
  return target;
}
