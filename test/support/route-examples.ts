/** The route table's routes as concrete request paths over the test corpus, for tests that walk every route. */
import type { RouteEntry } from '../../gateway/routes/route-entry.ts';
import type { AccessClass } from '../../gateway/vocabulary/access-class.ts';
import { ROUTE_TABLE } from '../../gateway/routes/route-table.ts';

/** Values test/fixtures/mini-corpus serves for each path parameter. */
const EXAMPLE_PARAMETERS: Readonly<Record<string, string>> = { city: 'alpha', programId: 'a-roof' };

/** Query strings an operation needs to answer 200, by operationId (the change feed requires `since`). */
const REQUIRED_QUERIES: Readonly<Record<string, string>> = { listChanges: '?since=2026-01-01' };

/** A concrete path of one route: its template with the example parameters, and, if asked, its required query. */
export function examplePath(route: RouteEntry, options: { withRequiredQuery?: boolean } = {}): string {
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = EXAMPLE_PARAMETERS[name];
    if (value === undefined) throw new Error(`no example value for :${name} of ${route.path}`);
    return value;
  });
  return options.withRequiredQuery ? `${path}${REQUIRED_QUERIES[route.operation.operationId] ?? ''}` : path;
}

/** One concrete path per route of an access class (every route when none is given), in table order. */
export function examplePaths(access?: AccessClass, options: { withRequiredQuery?: boolean } = {}): string[] {
  return ROUTE_TABLE.filter((route) => access === undefined || route.access === access).map((route) => examplePath(route, options));
}

const MATCHERS = ROUTE_TABLE.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`),
}));

/** The access class of the route a concrete path (query allowed) is served by, in router order; undefined when none. */
export function accessOf(path: string): AccessClass | undefined {
  const pathname = path.split('?')[0] ?? path;
  return MATCHERS.find(({ pattern }) => pattern.test(pathname))?.route.access;
}
