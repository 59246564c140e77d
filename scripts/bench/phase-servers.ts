/**
 * Which servers a route's rounds rotate through. The gateways that keep their windows in Redis (and keys
 * in PostgreSQL) join the rotation of the licensed routes they repeat, between the in-memory gateway(s)
 * and the ceilings, so every gateway is measured against ceilings driven in the same rounds, under the
 * same load, rather than against ceilings measured minutes earlier.
 */
import type { RoundServer } from './drive-rounds.ts';
import type { RouteId } from './render-report.ts';

// The licensed routes the --redis phase repeats: the limiter is the only difference, so the hit and the
// change feed (cached bodies behind the same meter) add nothing but time; the full run stays within 10 min.
export const REDIS_ROUTES: ReadonlySet<RouteId> = new Set<RouteId>(['unfiltered', 'filtered-miss', 'detail']);

/** The servers of a run, grouped by their place in the rotation. */
export interface PhaseServers {
  /** The gateways every route drives (the in-memory one; under `--compare`, A then B). */
  gateways: readonly RoundServer[];
  /** The gateways with shared storage (`--redis`, `--redis --keys postgres`), driven on `sharedRoutes` only. */
  shared: readonly RoundServer[];
  /** The ceilings, last in each round. */
  ceilings: readonly RoundServer[];
  /** The routes the shared-storage gateways repeat. */
  sharedRoutes: ReadonlySet<RouteId>;
}

/** A round's servers for `route`, in the order each round drives them. */
export function serversForRoute(route: RouteId, servers: PhaseServers): RoundServer[] {
  return [...servers.gateways, ...(servers.sharedRoutes.has(route) ? servers.shared : []), ...servers.ceilings];
}

/** The routes the shared-storage gateways repeat: the licensed ones of `repeated`, the unfiltered one alone when `quick`. */
export function sharedRouteIds(routes: readonly RouteId[], repeated: ReadonlySet<RouteId>, quick: boolean): Set<RouteId> {
  return new Set(routes.filter((route) => repeated.has(route) && (!quick || route === 'unfiltered')));
}
