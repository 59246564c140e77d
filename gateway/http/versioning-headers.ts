/** Contract and dataset versioning headers (spec 4.1, 9), and deprecation signals when a route has one. */
import type { Middleware } from 'koa';
import type { GatewayState } from './gateway-state.ts';
import type { HeaderList } from '../pipeline/route-exchange.ts';
import type { RouteTable } from '../routes/route-entry.ts';

/** A deprecated operation's announcement (spec 9.4): RFC 9745 `Deprecation`, RFC 8594 `Sunset`, a `Link` to its successor. */
export interface Deprecation {
  /** When the deprecation took effect. */
  deprecatedAt: Date;
  /** When the operation retires; at least 90 days after the announcement. */
  sunset: Date;
  /** The replacement operation's URI. */
  successor: string;
}

/** Route template (as the route table declares it) -> the deprecation headers of its responses. */
export type DeprecationTable = ReadonlyMap<string, HeaderList>;

/** The headers of a deprecation, built once per route. */
export function deprecationHeaders(deprecation: Deprecation): HeaderList {
  return [
    ['Deprecation', `@${Math.floor(deprecation.deprecatedAt.getTime() / 1000)}`],
    ['Sunset', deprecation.sunset.toUTCString()],
    ['Link', `<${deprecation.successor}>; rel="successor-version"`],
  ];
}

/** The deprecated routes of a route table (each entry's `deprecation`); empty today: nothing is deprecated. */
export function deprecationsOf(routes: RouteTable): DeprecationTable {
  return new Map(routes.flatMap((route) => (route.deprecation === undefined ? [] : [[route.path, deprecationHeaders(route.deprecation)] as const])));
}

/**
 * Sets `X-API-Version` on every response and `X-Dataset-Revision` on successful ones (never on errors);
 * adds the deprecation headers of the matched route.
 */
export function versioningHeaders(apiVersion: string, deprecations: DeprecationTable): Middleware<GatewayState> {
  return async (ctx, next) => {
    ctx.set('X-API-Version', apiVersion);
    await next();
    if (ctx.status < 400) ctx.set('X-Dataset-Revision', ctx.state.snapshot.revision);
    const matched = (ctx as { _matchedRoute?: string })._matchedRoute;
    const headers = matched === undefined ? undefined : deprecations.get(matched);
    for (const [name, value] of headers ?? []) ctx.set(name, value);
  };
}
