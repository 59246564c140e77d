/**
 * The fast path: the node:http adapter of the route pipeline, ahead of Koa. For every route whose table
 * entry sets `fastPath` (the program routes, cities and counts, stored change pages, the sample, schemas,
 * reports, OpenAPI document, health, readiness and the probes: bodies that are precomputed or cached) it
 * runs the same composed steps (gateway/pipeline/route-chain.ts) as the Koa adapter, over the same
 * RouteChain objects and so the same caches, and writes the same bytes: Koa with @koa/router costs a large
 * share of the ceiling for a precomputed body before any gateway work (BENCHMARKS.md).
 *
 * It takes only requests it can answer in full. It declines, before anything is metered, logged or
 * written, and so before any work Koa would redo but the synchronous key check and the handler's read of
 * cached bytes: a request the guards refuse (http/request-guards.ts: method, URL length, Host), a path
 * the table's plain patterns do not match (an encoded slug, a trailing slash), a licensed request without
 * a key or with a key the lookup cannot admit at once, and any handler refusal (a 404, a bad filter) or
 * answer not at hand (a change page not stored yet). Koa then answers it exactly as before.
 * Once a request is metered it is the fast path's: its reply, or the 429 or 503 metering decides,
 * rendered by `errorResponse` as the Koa chain renders it. A deprecated route is served like any other:
 * its deprecation headers are the route's own (RouteChain.routeHeaders), sent first on every answer, as
 * the Koa adapter sends them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { encodeReply, VARY_ACCEPT_ENCODING } from '../encoding/encode-reply.ts';
import type { EncodedBodies } from '../encoding/encoded-bodies.ts';
import type { ResponseCoding } from '../encoding/negotiate-encoding.ts';
import { ApiError } from '../http/api-error.ts';
import { clientAddress } from '../http/client-address.ts';
import { errorResponse } from '../http/render-errors.ts';
import { requestRefusal } from '../http/request-guards.ts';
import { NOSNIFF_HEADER } from '../http/nosniff-header.ts';
import { requestIdFor } from '../http/request-id.ts';
import type { LicensedKey } from '../keys/key-lookup.ts';
import type { GatewayLogger } from '../observability/gateway-logger.ts';
import type { GatewayMetrics } from '../observability/gateway-metrics.ts';
import { logRequestLine } from '../observability/request-log-line.ts';
import { JSON_CONTENT_TYPE } from '../pipeline/json-reply.ts';
import type { RouteChain } from '../pipeline/route-chain.ts';
import type { PathParameters, RouteReply, RouteRequest } from '../pipeline/route-exchange.ts';
import type { Snapshot } from '../snapshot/open-snapshot.ts';
import type { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import { addToVary } from './append-vary.ts';
import { compileRouteMatcher } from './route-matcher.ts';
import { createSuccessTails, pushReplyHeaders, type SuccessTails } from './success-tails.ts';

/** What the fast path uses; the same objects the Koa app is given. */
export interface FastPathDependencies {
  snapshots: SnapshotHolder;
  /** The app's composed routes, shared with Koa; the fast path takes those whose entry sets `fastPath`. */
  chains: readonly RouteChain[];
  /** Take client addresses from X-Forwarded-For, as the Koa app does. */
  trustProxy: boolean;
  /** The compressed forms of bodies, shared with the Koa adapter. */
  encodings: EncodedBodies;
  apiVersion: string;
  log: GatewayLogger;
  metrics?: GatewayMetrics;
}

/** Answers the request and returns true, or returns false having done nothing, for Koa to answer. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/** A fast route with the headers that never change between its requests, flattened once. */
interface FastRoute {
  chain: RouteChain;
  /**
   * What every answer sends after its X-Request-ID: X-API-Version and nosniff, then the route's own headers (a deprecated
   * route's), as the Koa adapter sends them.
   */
  head: readonly string[];
  /** The entry's caching headers: a 200 sends these, then its Content-Type; a 304 sends them alone. */
  cachingTail: readonly string[];
  /** What a 200 sends after its metering's headers, made once per body length and revision (success-tails.ts). */
  successTail: SuccessTails;
}

/** An admitted, answered request waiting for its meter. */
interface Answered {
  request: IncomingMessage;
  response: ServerResponse;
  fast: FastRoute;
  routeRequest: RouteRequest;
  key: LicensedKey | undefined;
  reply: RouteReply;
  revision: string;
  started: number;
}

/** A RouteRequest read from node:http's request; a class, so a request allocates no closures. */
class NodeRouteRequest implements RouteRequest {
  key?: LicensedKey;
  readonly #request: IncomingMessage;
  readonly #trustProxy: boolean;

  constructor(
    request: IncomingMessage,
    readonly method: string,
    readonly params: PathParameters,
    readonly querystring: string,
    readonly snapshot: Snapshot,
    trustProxy: boolean,
  ) {
    this.#request = request;
    this.#trustProxy = trustProxy;
  }

  header(name: string): string {
    const value = this.#request.headers[name];
    return typeof value === 'string' ? value : '';
  }

  clientAddress(): string {
    return clientAddress(this.#request, this.#trustProxy);
  }
}

/** Creates the fast path of one gateway process. */
export function createFastPath(deps: FastPathDependencies): FastPath {
  const { snapshots, log, metrics } = deps;
  const fastRoutes = new Map<string, FastRoute>();
  for (const chain of deps.chains) {
    if (chain.route.fastPath !== true) continue;
    const cachingTail = chain.successHeaders.flat();
    fastRoutes.set(chain.route.path, {
      chain,
      head: ['X-API-Version', deps.apiVersion, ...NOSNIFF_HEADER, ...chain.routeHeaders.flat()],
      cachingTail,
      successTail: createSuccessTails(cachingTail),
    });
  }
  // Matched against every route, in table order, so a literal route left to Koa still shadows a fast template.
  const matchRoute = compileRouteMatcher(deps.chains.map((chain) => chain.route));
  // The revision header of 304s, built once per revision rather than per request (a 200's is in its tail).
  let revisionHeader: { revision: string; pair: readonly string[] } = { revision: '', pair: [] };
  const revisionPair = (revision: string) => {
    if (revisionHeader.revision !== revision) revisionHeader = { revision, pair: ['X-Dataset-Revision', revision] };
    return revisionHeader.pair;
  };

  /** Logs and counts an answered request; `bytes` is the body bytes written (none for HEAD and 304) in `coding`. */
  const finish = (request: IncomingMessage, route: string, requestId: string, status: number, started: number, coding: ResponseCoding, bytes: number, key?: LicensedKey) => {
    const method = request.method ?? 'GET';
    logRequestLine(log, { requestId, method, route, status, started, key, fastPath: true });
    if (metrics === undefined) return;
    metrics.observeRequest({ route, method, status, seconds: (performance.now() - started) / 1000 });
    metrics.countResponseBytes(coding, bytes);
  };

  const sendError = (response: ServerResponse, head: boolean, caught: unknown, before: string[]) => {
    const error = errorResponse(caught);
    const length = Buffer.byteLength(error.body);
    const headers = [...before, 'Content-Type', JSON_CONTENT_TYPE, 'Content-Length', String(length)];
    for (const [name, value] of error.headers) headers.push(name, value);
    response.writeHead(error.status, headers);
    response.end(head ? undefined : error.body);
    return { status: error.status, bytes: head ? 0 : length };
  };

  /**
   * Sends a metered request's reply; an unexpected failure while writing is answered like a refusal.
   * `waited`: metering waited (on Redis), so the reply's snapshot may have failed since the handler checked it.
   */
  const send = (answered: Answered, requestId: string, headers: string[], waited: boolean) => {
    const { request, response, fast, reply } = answered;
    let bytes = 0;
    let status: number = reply.status;
    let coding: ResponseCoding = 'identity';
    try {
      // Without a wait the handler's own check ran in this very turn, and nothing can fail a snapshot in between.
      if (waited) fast.chain.assertServable(answered.routeRequest);
      const encoded = encodeReply(reply, answered.routeRequest, deps.encodings, fast.chain.compresses);
      coding = encoded.coding;
      status = encoded.status;
      // The Vary field metering wrote (licensed routes) takes the token here; else the tail carries it.
      const varyInTail = encoded.vary && !addToVary(headers, VARY_ACCEPT_ENCODING);
      if (encoded.status === 200 && encoded.body !== undefined) {
        const tail = fast.successTail(reply, encoded, answered.revision, varyInTail);
        for (let index = 0; index < tail.length; index++) headers.push(tail[index] as string);
        response.writeHead(200, headers);
        const head = request.method === 'HEAD';
        response.end(head ? undefined : encoded.body);
        bytes = head ? 0 : encoded.bodyBytes;
      } else {
        pushReplyHeaders(headers, fast.cachingTail, reply, encoded, varyInTail);
        headers.push(...revisionPair(answered.revision));
        response.writeHead(304, headers);
        response.end();
      }
    } catch (error) {
      refuse(answered, requestId, headers, error);
      return;
    }
    finish(request, fast.chain.route.path, requestId, status, answered.started, coding, bytes, answered.key);
  };

  /** Answers metering's 429 or 503 (or an unexpected failure) as the Koa chain renders it. */
  const refuse = (answered: Answered, requestId: string, headers: string[], error: unknown) => {
    const { request, response, fast } = answered;
    if (!(error instanceof ApiError)) log.error({ err: error, requestId, path: (request.url ?? '').split('?')[0] }, 'unexpected error');
    let sent = { status: 500, bytes: 0 };
    if (response.headersSent) response.destroy();
    else sent = sendError(response, request.method === 'HEAD', error, headers);
    finish(request, fast.chain.route.path, requestId, sent.status, answered.started, 'identity', sent.bytes);
  };

  /**
   * Meters the answered request, then sends its reply, or metering's 429 or 503; never throws or rejects.
   * With a limiter that counts in this process the whole answer is synchronous: no promise per request.
   */
  const meterAndSend = (answered: Answered): void => {
    const requestId = requestIdFor(answered.request.headers['x-request-id']);
    // A spread, not a copy of a prebuilt array with the id filled in: slice() measured no faster, and far
    // slower from a frozen array (BENCHMARKS.md, issue 25 goal 1, fourth round).
    const headers: string[] = ['X-Request-ID', requestId, ...answered.fast.head];
    let metering: void | Promise<void>;
    try {
      metering = answered.fast.chain.meter(answered.routeRequest, answered.key, headers);
    } catch (error) {
      refuse(answered, requestId, headers, error);
      return;
    }
    if (metering instanceof Promise) {
      metering.then(
        () => send(answered, requestId, headers, true),
        (error: unknown) => refuse(answered, requestId, headers, error),
      );
    } else {
      send(answered, requestId, headers, false);
    }
  };

  return function fastPath(request, response) {
    const started = performance.now();
    if (requestRefusal(request) !== undefined) return false;
    const method = request.method ?? 'GET';
    const url = request.url ?? '';
    const queryAt = url.indexOf('?');
    const matched = matchRoute(queryAt === -1 ? url : url.slice(0, queryAt));
    if (matched === undefined) return false;
    const fast = fastRoutes.get(matched.route.path);
    if (fast === undefined) return false;
    const { chain } = fast;
    // A keyless licensed request is refused; the refusal is Koa's to render and meter.
    if (chain.route.access === 'licensed' && !request.headers['x-api-key']) return false;

    // Everything up to the meter is synchronous and side-effect free: a refusal or a miss goes to Koa whole.
    // No lease: the handler runs within this turn, where no swap can close the served snapshot, and the
    // reply it returns is bytes already in memory, which a swap or a failure never changes (the check
    // before writing a reply that waited on metering is `assertServable`'s, in `send`).
    const snapshot = snapshots.current;
    const routeRequest = new NodeRouteRequest(request, method, matched.params, queryAt === -1 ? '' : url.slice(queryAt + 1), snapshot, deps.trustProxy);
    let key: LicensedKey | undefined;
    let reply: RouteReply | undefined;
    try {
      key = chain.admitAtOnce(routeRequest);
      if (key !== undefined) routeRequest.key = key;
      const { handler } = chain;
      reply = handler.atHand === undefined ? handler(routeRequest) : handler.atHand(routeRequest);
    } catch {
      return false;
    }
    if (reply === undefined) return false;

    meterAndSend({ request, response, fast, routeRequest, key, reply, revision: snapshot.revision, started });
    return true;
  };
}
