/** `components.headers` of the document of a route table, and the ETag allowlist it names. */
import type { RouteTable } from '../routes/route-entry.ts';
import { DEPRECATION_HEADERS, ETAG_CODINGS, openApiHeaders } from './openapi-headers.ts';
import { openApiPathOf } from './openapi-paths.ts';

/**
 * The ETag allowlist of a route table, as the documents state it: the routes whose caching policy is
 * `cacheable`, in table order (`/a`, `/b` and `/c`).
 */
export function etagAllowlist(routes: RouteTable): string {
  const paths = routes.filter((route) => route.caching === 'cacheable').map((route) => `\`${openApiPathOf(route.path)}\``);
  return paths.length < 2 ? paths.join('') : `${paths.slice(0, -1).join(', ')} and ${paths.at(-1)}`;
}

/**
 * `components.headers` of the document of `routes`: the ETag component names the table's allowlist, and the
 * deprecation headers are components only when some route is deprecated (an unused component is a promise
 * no response keeps).
 */
export function headerComponents(routes: RouteTable): Record<string, object> {
  const etag = `Strong entity tag of the document. Only on the ETag allowlist: ${etagAllowlist(routes)}; send it back in \`If-None-Match\` to receive 304.${ETAG_CODINGS}`;
  const components: Record<string, object> = { ...openApiHeaders, ETag: { ...openApiHeaders.ETag, description: etag } };
  if (!routes.some((route) => route.deprecation !== undefined)) for (const name of DEPRECATION_HEADERS) delete components[name];
  return components;
}
