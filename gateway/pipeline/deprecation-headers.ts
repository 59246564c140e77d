/**
 * A deprecated route's announcement (spec 9.4) and the headers it puts on the route's responses. The route's
 * own step sends them in both adapters (gateway/routes/register-routes.ts, gateway/fast-path/serve-fast-path.ts),
 * so every response the route answers carries them, refusals included; what is refused before any route is
 * chosen (the request guards' 400 `MALFORMED_REQUEST`, 405 and 414, the HTTP server's 400, 408 and 431)
 * belongs to no route and does not.
 */
import type { HeaderList } from './route-exchange.ts';

/** A deprecated operation's announcement: RFC 9745 `Deprecation`, RFC 8594 `Sunset`, a `Link` to its successor. */
export interface Deprecation {
  /** When the deprecation took effect. */
  deprecatedAt: Date;
  /** When the operation retires; at least 90 days after the announcement. */
  sunset: Date;
  /** The replacement operation's URI. */
  successor: string;
}

/** The headers of a deprecation, in the order they are sent; built once per route. */
export function deprecationHeaders(deprecation: Deprecation): HeaderList {
  return [
    ['Deprecation', `@${Math.floor(deprecation.deprecatedAt.getTime() / 1000)}`],
    ['Sunset', deprecation.sunset.toUTCString()],
    ['Link', `<${deprecation.successor}>; rel="successor-version"`],
  ];
}
