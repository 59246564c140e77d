/**
 * The steps of one route, once a request has passed what every request passes (request id, log, metrics,
 * snapshot pin, error rendering, versioning headers, request guards: gateway/app.ts): the access chain of
 * the route's class (key, tier, scope, rate limit; STYLE 7), then its handler. Plain functions over
 * gateway/pipeline/route-exchange.ts, which the two adapters run:
 * - Koa (gateway/routes/register-routes.ts) runs `runRoute`: admit, meter, answer.
 * - The fast path (gateway/fast-path/serve-fast-path.ts) runs `admitAtOnce` and the handler first, both
 *   synchronous and free of side effects, so a request it cannot answer is declined to Koa untouched; then
 *   `meter`. The reply is the same, because a handler reads only the request and the pinned snapshot.
 */
import { admitKey, admitKeyWhenLooked, meterAdmittedKey, meterRefusal, type AccessDependencies } from '../access/licensed-access.ts';
import { meterPublic } from '../access/public-access.ts';
import type { LicensedKey } from '../keys/key-lookup.ts';
import type { RouteDependencies } from '../routes/route-dependencies.ts';
import type { RouteEntry } from '../routes/route-entry.ts';
import { assertServable } from '../snapshot/dataset-unavailable.ts';
import { compressesSuccess } from '../encoding/compresses-success.ts';
import { successCachingHeaders } from './caching-headers.ts';
import { deprecationHeaders } from './deprecation-headers.ts';
import type { HeaderList, HeaderSink, RouteHandler, RouteReply, RouteRequest } from './route-exchange.ts';

/** One route's steps, composed once per app from its table entry. */
export interface RouteChain {
  readonly route: RouteEntry;
  /** Key, tier and scope: the admitted key of a licensed route, undefined on keyless ones. Throws the refusal. */
  admit(request: RouteRequest): Promise<LicensedKey | undefined>;
  /** `admit` without waiting: throws as well when the key lookup would wait on a remote key store. */
  admitAtOnce(request: RouteRequest): LicensedKey | undefined;
  /** Meters an admitted request (writing the rate-limit and licensed headers); throws 429 or 503. */
  meter(request: RouteRequest, key: LicensedKey | undefined, headers: HeaderSink): void | Promise<void>;
  /** Meters what `admit` refused (per client address), then the refusal is rendered. */
  meterRefusal(request: RouteRequest, refusal: unknown, headers: HeaderSink): Promise<void>;
  readonly handler: RouteHandler;
  /**
   * Throws 503 DATASET_UNAVAILABLE when the request's snapshot failed (its file changed or could not be
   * read) and the route's answer comes from it; the handler runs it first, and the fast path again just
   * before it writes a reply it computed earlier (its metering may have waited on Redis meanwhile).
   */
  assertServable(request: RouteRequest): void;
  /** Caching headers of a success, after the handler's own: from the entry's `caching`, built once. */
  readonly successHeaders: HeaderList;
  /**
   * Headers of every response the route answers, success or refusal, sent before any other step's: a
   * deprecated route's `Deprecation`, `Sunset` and `Link` (spec 9.4), else none; built once.
   */
  readonly routeHeaders: HeaderList;
  /** Whether the route's successes may be sent compressed (gateway/encoding/compresses-success.ts). */
  readonly compresses: boolean;
}

const keyHeader = (request: RouteRequest) => request.header('x-api-key') || undefined;

/** Composes a route's access chain, by its class, with its handler. */
export function composeRoute(route: RouteEntry, deps: RouteDependencies): RouteChain {
  const access: AccessDependencies = deps.access;
  const atOnce = { lookupKey: deps.lookupKeyAtOnce ?? access.lookupKey };
  const assertServableFor = route.snapshotIndependent === true ? () => undefined : (request: RouteRequest) => assertServable(request.snapshot);
  const handler = refusingFailedSnapshot(route.handler(deps), assertServableFor);
  const successHeaders = successCachingHeaders(route.caching);
  const routeHeaders = route.deprecation === undefined ? [] : deprecationHeaders(route.deprecation);
  const scope = route.scope ?? {};
  const compresses = compressesSuccess(route.access, route.caching);
  switch (route.access) {
    case 'licensed':
      return {
        route, handler, successHeaders, routeHeaders, assertServable: assertServableFor, compresses,
        admit: (request) => admitKeyWhenLooked(access, keyHeader(request), scope, request),
        admitAtOnce: (request) => admitKey(atOnce, keyHeader(request), scope, request),
        meter: (_request, key, headers) => {
          if (key === undefined) throw new Error(`route ${route.path}: a licensed request reached metering without a key`);
          return meterAdmittedKey(access, key, headers);
        },
        meterRefusal: (request, refusal, headers) => meterRefusal(access, refusal, request.clientAddress(), headers),
      };
    case 'public':
      return {
        route, handler, successHeaders, routeHeaders, assertServable: assertServableFor, compresses,
        admit: async () => undefined,
        admitAtOnce: () => undefined,
        meter: (request, _key, headers) => meterPublic(access, request.clientAddress(), headers),
        meterRefusal: async () => undefined,
      };
    case 'probe':
      // Never metered: a health checker polling them can neither exhaust a limit nor be refused by one.
      return {
        route, handler, successHeaders, routeHeaders, assertServable: assertServableFor, compresses,
        admit: async () => undefined,
        admitAtOnce: () => undefined,
        meter: () => undefined,
        meterRefusal: async () => undefined,
      };
  }
}

/** Runs a route's steps in the documented order: admit (metering a refusal), meter, answer. */
export async function runRoute(chain: RouteChain, request: RouteRequest, headers: HeaderSink): Promise<RouteReply> {
  let key: LicensedKey | undefined;
  try {
    key = await chain.admit(request);
  } catch (refusal) {
    await chain.meterRefusal(request, refusal, headers);
    throw refusal;
  }
  await chain.meter(request, key, headers);
  if (key !== undefined) request.key = key;
  return chain.handler(request);
}

/**
 * The handler behind a check of the pinned snapshot: nothing is read from, or served out of a cache built
 * from, a file that failed its check (STYLE 28). A check per answer is one property read.
 */
function refusingFailedSnapshot(handler: RouteHandler, check: (request: RouteRequest) => void): RouteHandler {
  const gated = (request: RouteRequest) => {
    check(request);
    return handler(request);
  };
  const { atHand } = handler;
  if (atHand === undefined) return gated;
  return Object.assign(gated, {
    atHand: (request: RouteRequest) => {
      check(request);
      return atHand(request);
    },
  });
}
