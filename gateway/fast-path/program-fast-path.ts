/**
 * The fast path: the routes of the route table that declare a fast answer (today the licensed program
 * routes: collections, filtered or not, and detail records) answered straight on node:http, ahead of Koa.
 * Koa with @koa/router costs a large share of the ceiling for a precomputed body before any gateway work
 * (issue 6; BENCHMARKS.md); these routes are most of the traffic.
 *
 * It runs the same steps as the Koa chain, through the same functions: key, tier and scope
 * (`admitKey`), the body (`ProgramBodies`, with the same caches), the rate limit (`meterKey`), headers,
 * the request log line and metrics. It takes only requests it can answer in full: it declines, before
 * anything is metered or written, every request that would be refused (no key, a bad key, out of scope,
 * a 404, a bad filter), an unusual request line (another method, no Host, a long or encoded URL, a
 * trailing slash), and a deprecated route; Koa then answers it exactly as before. Once a request is
 * metered it is the fast path's: 200, or the 429 or 503 the limiter decides, rendered by `errorResponse`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { admitKey, LICENSED_RESPONSE_HEADERS, meterKey, type AccessDependencies } from '../access/licensed-access.ts';
import { rateLimited } from '../access/access-failures.ts';
import { rateLimitHeaders } from '../access/rate-limit-headers.ts';
import { ApiError } from '../http/api-error.ts';
import { errorResponse } from '../http/render-errors.ts';
import { parseQuery } from '../http/parse-query.ts';
import { MAX_URL_LENGTH } from '../http/reject-long-urls.ts';
import { requestIdFor } from '../http/request-id.ts';
import { JSON_CONTENT_TYPE } from '../http/send-json.ts';
import type { DeprecationTable } from '../http/versioning-headers.ts';
import type { LicensedKey } from '../keys/key-lookup.ts';
import type { GatewayLogger } from '../observability/gateway-logger.ts';
import type { GatewayMetrics } from '../observability/gateway-metrics.ts';
import { logRequestLine } from '../observability/request-log-line.ts';
import { LRUCache } from 'lru-cache';
import { ENTRY_OVERHEAD_BYTES } from '../programs/cache-budget.ts';
import { parseProgramFilters, type ProgramFilters } from '../programs/parse-program-filters.ts';
import type { ProgramBodies } from '../programs/program-bodies.ts';
import type { RouteTable } from '../routes/route-entry.ts';
import type { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import { compileRouteMatcher } from './route-matcher.ts';

/** What the fast path uses; the same objects the Koa app is given. */
export interface ProgramFastPathDependencies {
  snapshots: SnapshotHolder;
  /** The route table; the fast path takes the routes that declare a `fastAnswer`. */
  routes: RouteTable;
  /** The key lookup as the app gets it, before metrics instrumentation (a declined request is looked up again by Koa). */
  access: AccessDependencies;
  programBodies: ProgramBodies;
  apiVersion: string;
  deprecations: DeprecationTable;
  log: GatewayLogger;
  metrics?: GatewayMetrics;
}

/** Answers the request and returns true, or returns false having done nothing, for Koa to answer. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

const NO_FILTERS: ProgramFilters = Object.freeze({});

/** Creates the fast path of one gateway process. */
export function createProgramFastPath(deps: ProgramFastPathDependencies): FastPath {
  const { snapshots, access, programBodies, log, metrics } = deps;
  const fastRoutes = deps.routes.filter((route) => route.fastAnswer !== undefined);
  // The fast path runs the licensed chain only (a key is required); a keyless route would skip its own.
  for (const route of fastRoutes) if (route.access !== 'licensed') throw new Error(`route ${route.path}: the fast path answers licensed routes only`);
  const matchRoute = compileRouteMatcher(fastRoutes);

  const finish = (request: IncomingMessage, route: string, requestId: string, status: number, started: number, key?: LicensedKey) => {
    const method = request.method ?? 'GET';
    // `fastPath` says which path answered, for an operator comparing latencies; otherwise the line is the Koa chain's.
    logRequestLine(log, { requestId, method, route, status, started, key, fastPath: true });
    metrics?.observeRequest({ route, method, status, seconds: (performance.now() - started) / 1000 });
  };

  const sendError = (response: ServerResponse, head: boolean, caught: unknown, before: string[]) => {
    const error = errorResponse(caught);
    const headers = [...before, 'Content-Type', JSON_CONTENT_TYPE, 'Content-Length', String(Buffer.byteLength(error.body))];
    for (const [name, value] of error.headers) headers.push(name, value);
    response.writeHead(error.status, headers);
    response.end(head ? undefined : error.body);
    return error.status;
  };

  /** Meters the admitted request, then sends its body, or the limiter's 429 or 503; never rejects. */
  const answerMetered = async (admitted: {
    request: IncomingMessage; response: ServerResponse; route: string; requestId: string; key: LicensedKey; body: Buffer; revision: string; started: number;
  }) => {
    const { request, response, requestId } = admitted;
    const head = request.method === 'HEAD';
    const always = ['X-Request-ID', requestId, 'X-API-Version', deps.apiVersion];
    const headers = [...always];
    let status: number;
    let served: LicensedKey | undefined;
    try {
      const decision = await meterKey(access, admitted.key);
      for (const [name, value] of rateLimitHeaders(decision, access.now())) headers.push(name, value);
      if (decision.allowed) {
        for (const [name, value] of LICENSED_RESPONSE_HEADERS) headers.push(name, value);
        headers.push('Content-Type', JSON_CONTENT_TYPE, 'Content-Length', String(admitted.body.length), 'X-Dataset-Revision', admitted.revision);
        response.writeHead(200, headers);
        response.end(head ? undefined : admitted.body);
        status = 200;
        served = admitted.key;
      } else {
        status = sendError(response, head, rateLimited(decision.retryAfter ?? 1), headers);
      }
    } catch (error) {
      if (!(error instanceof ApiError)) log.error({ err: error, requestId, path: (request.url ?? '').split('?')[0] }, 'unexpected error');
      if (response.headersSent) {
        response.destroy();
        status = 500;
      } else {
        // A failed meter sets no rate-limit headers, as in the Koa chain.
        status = sendError(response, head, error, always);
      }
    }
    finish(request, admitted.route, requestId, status, admitted.started, served);
  };

  // Query text -> its parsed filters: a pure function, so a repeated query (every filtered cache hit) skips
  // URLSearchParams and the filter checks. Only queries that parse are remembered; a bad one goes to Koa.
  const parsedQueries = new LRUCache<string, ProgramFilters>({ maxSize: 1024 * 1024, sizeCalculation: (_filters, text) => text.length + ENTRY_OVERHEAD_BYTES });
  const filtersOf = (text: string): ProgramFilters => {
    if (text === '') return NO_FILTERS;
    let filters = parsedQueries.get(text);
    if (filters === undefined) {
      filters = Object.freeze(parseProgramFilters(parseQuery(text)));
      parsedQueries.set(text, filters);
    }
    return filters;
  };

  return function programFastPath(request, response) {
    const started = performance.now();
    const method = request.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = request.url ?? '';
    if (url.length > MAX_URL_LENGTH || request.headers.host === undefined) return false;
    const rawKey = request.headers['x-api-key'];
    if (typeof rawKey !== 'string' || rawKey === '') return false;
    const queryAt = url.indexOf('?');
    const matched = matchRoute(queryAt === -1 ? url : url.slice(0, queryAt));
    if (matched === undefined || deps.deprecations.has(matched.route.path)) return false;
    const { route, params } = matched;
    const answer = route.fastAnswer;
    if (answer === undefined) return false;
    const querystring = queryAt === -1 ? '' : url.slice(queryAt + 1);

    // Everything up to the meter is synchronous and side-effect free: a refusal or a miss goes to Koa whole.
    const lease = snapshots.acquire();
    const { snapshot } = lease;
    let key: LicensedKey;
    let body: Buffer;
    try {
      key = admitKey(access, rawKey, route.scope ?? {}, { params, querystring, state: { snapshot } });
      body = answer(programBodies, snapshot, params, () => filtersOf(querystring));
    } catch {
      return false;
    } finally {
      lease.release();
    }

    const requestId = requestIdFor(request.headers['x-request-id']);
    void answerMetered({ request, response, route: route.path, requestId, key, body, revision: snapshot.revision, started });
    return true;
  };
}
