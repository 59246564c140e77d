/** Contract and dataset versioning headers (spec 4.1, 9), and deprecation signals when a route has one. */
import type { Middleware } from 'koa';
import type { GatewayState } from './gateway-state.ts';

/** A deprecated operation's announcement (spec 9.4): RFC 9745 `Deprecation`, RFC 8594 `Sunset`, a `Link` to its successor. */
export interface Deprecation {
  /** When the deprecation took effect. */
  deprecatedAt: Date;
  /** When the operation retires; at least 90 days after the announcement. */
  sunset: Date;
  /** The replacement operation's URI. */
  successor: string;
}

/** Route path pattern (as registered with the router) -> its deprecation. Empty today: nothing is deprecated. */
export type DeprecationTable = ReadonlyMap<string, Deprecation>;

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
    const deprecation = matched === undefined ? undefined : deprecations.get(matched);
    if (deprecation) {
      ctx.set('Deprecation', `@${Math.floor(deprecation.deprecatedAt.getTime() / 1000)}`);
      ctx.set('Sunset', deprecation.sunset.toUTCString());
      ctx.set('Link', `<${deprecation.successor}>; rel="successor-version"`);
    }
  };
}
