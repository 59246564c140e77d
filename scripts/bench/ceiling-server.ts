/**
 * The ceilings: bare node:http writing bytes fetched from the gateway, with no per-request work but a Map
 * lookup. Run as its own process, compiled as the gateway is (`node dist/js/scripts/bench/ceiling-server.js <routes.json>`),
 * where the file maps each URL path (with query) to the base64 body; a URL with a query that is not in
 * the map gets the `missBody` (the varying cache-miss route). Prints `listening on http://HOST:PORT`.
 *
 * Without `sameHeaders` it answers with Content-Type and Content-Length only (the two-header ceiling).
 * With it, it replays the gateway's own response headers for each path, captured from one response
 * (names, values and order as sent; per-request values such as X-Request-ID or RateLimit's remaining
 * count as they were then), and keeps the gateway's keep-alive settings, so the response head on the
 * wire is the gateway's: the same-headers ceiling (issue 15).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { holdTickObjectShape } from '../../gateway/operations/hold-tick-object-shape.ts';

/** The file the bench writes for the ceiling server. */
export interface CeilingRoutes {
  bodies: Record<string, string>;
  /** Base64 body for any unknown URL that carries a query string. */
  missBody: string;
  /** Present for the same-headers ceiling: what the gateway sent besides the body. */
  sameHeaders?: CapturedHeads;
  /**
   * What the gateway sent to a request with `Accept-Encoding: <coding>` (the compressed variants), keyed
   * by that header's value: the same shape, so the ceiling sends the very compressed bytes of each coding.
   */
  compressed?: Record<string, Omit<CeilingRoutes, 'compressed'>>;
}

/** The gateway's response heads, per path and for the miss route, as `captureHead` reads them. */
export interface CapturedHeads {
  /** Flat name, value, name, value… as the gateway set them, per path of `bodies`. */
  byPath: Record<string, string[]>;
  miss: string[];
  /** The gateway's `Keep-Alive: timeout=…, max=…`, as server settings. */
  keepAliveTimeoutMs: number;
  maxRequestsPerSocket: number;
}

const file = process.argv[2];
if (file !== undefined) {
  // As the gateway does (its start): bare node meets the same V8 slow path once idle collections run, and
  // a ratio should not depend on which of the two processes the collector happened to catch.
  holdTickObjectShape();
  const routes = JSON.parse(readFileSync(file, 'utf8')) as CeilingRoutes;
  const same = routes.sameHeaders;
  const twoHeaders = (body: Buffer) => ({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(body.length) });
  type Answer = { body: Buffer; headers: Record<string, string> | string[] };
  const answersOf = (set: Omit<CeilingRoutes, 'compressed'>) => {
    const answers = new Map<string, Answer>();
    for (const [path, base64] of Object.entries(set.bodies)) {
      const body = Buffer.from(base64, 'base64');
      answers.set(path, { body, headers: set.sameHeaders?.byPath[path] ?? twoHeaders(body) });
    }
    const missBody = Buffer.from(set.missBody, 'base64');
    return { answers, miss: { body: missBody, headers: set.sameHeaders?.miss ?? twoHeaders(missBody) } };
  };
  const plain = answersOf(routes);
  const compressed = new Map(Object.entries(routes.compressed ?? {}).map(([coding, set]) => [coding, answersOf(set)]));
  const notFound = { body: Buffer.from('{"code":"NOT_FOUND"}'), headers: twoHeaders(Buffer.from('{"code":"NOT_FOUND"}')) };
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    const coding = request.headers['accept-encoding'];
    const { answers, miss } = (coding === undefined ? undefined : compressed.get(coding)) ?? plain;
    const answer = answers.get(url) ?? (url.includes('?') ? miss : notFound);
    response.writeHead(answer === notFound ? 404 : 200, answer.headers);
    response.end(answer.body);
  });
  server.keepAliveTimeout = same?.keepAliveTimeoutMs ?? 5_000;
  if (same !== undefined) server.maxRequestsPerSocket = same.maxRequestsPerSocket;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as AddressInfo;
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
}
