/**
 * What the shared-cache tests (test/gateway/http/shared-cache-*.test.ts) ask and read: the keyless routes
 * whose successes a shared cache may store, and raw answers (node:http does not decode bodies) with their
 * bytes decoded for comparison with the gateway's own.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ROUTE_TABLE } from '../../gateway/routes/route-table.ts';
import { sharedCacheMayStore } from '../../gateway/vocabulary/success-caching.ts';

/** The keyless routes a shared cache may store (licensed ones are `private, no-store`), without path parameters. */
export const SHARED_ROUTES = ROUTE_TABLE.filter((route) => route.access === 'public' && sharedCacheMayStore(route.caching) && !route.path.includes(':'));

/** A raw answer. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** `method` (GET unless named) of `path` of `url` on a connection of its own; the body as sent, not decoded. */
export function ask(url: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, path, method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The body as it is, whatever coding it was sent in. */
export function decoded(answer: RawAnswer): Buffer {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body);
  if (coding === 'gzip') return gunzipSync(answer.body);
  return answer.body;
}

/** A response header as one string (repeated fields joined), or undefined. */
export function header(answer: RawAnswer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Where an answer's rate-limit counter stands: its window's end and what was left in it. */
export interface CounterMark {
  reset: number;
  remaining: number;
}

/** Before the first answer: any counter is later. */
export const BEFORE_ANY_COUNTER: CounterMark = { reset: Number.NEGATIVE_INFINITY, remaining: Number.POSITIVE_INFINITY };

/** The answer's `X-RateLimit-Reset` and `X-RateLimit-Remaining`. */
export function counterMark(answer: RawAnswer): CounterMark {
  return { reset: Number(header(answer, 'x-ratelimit-reset')), remaining: Number(header(answer, 'x-ratelimit-remaining')) };
}

/**
 * Whether `mark` was computed after `previous` in one bucket: fewer left in the same window, or a later
 * window (a run can cross a minute's end, where the count starts again). A stored copy of an earlier answer
 * is neither: it carries an earlier window, or the same one with more left.
 */
export function isLaterCounter(mark: CounterMark, previous: CounterMark): boolean {
  if (!Number.isFinite(mark.reset) || !Number.isFinite(mark.remaining)) return false;
  return mark.reset > previous.reset || (mark.reset === previous.reset && mark.remaining < previous.remaining);
}
