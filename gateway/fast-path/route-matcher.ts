/**
 * The fast path's router: one regular expression compiled from the route table's templates, so a route the
 * fast path serves is declared once, in gateway/routes/route-table.ts, like every other.
 */
import type { PathParameters, RouteEntry, RouteTable } from '../routes/route-entry.ts';

/**
 * What a path parameter may be for the fast path to take the request: plain slugs and ids, which
 * @koa/router would pass through unchanged (no percent-encoding to decode, no case folding). Anything
 * else is left to Koa's router, as is a trailing slash. The fast path matches every route of the table
 * (so a literal left to Koa still shadows a fast template), so a route with a new parameter name adds its
 * pattern here.
 */
export const FAST_PARAMETER_PATTERNS: Readonly<Record<string, string>> = {
  city: '[a-z0-9]+(?:-[a-z0-9]+)*',
  programId: '[A-Za-z0-9][A-Za-z0-9._-]*',
};

/** A route the matcher found, with its path parameters as @koa/router would give them. */
export interface MatchedRoute {
  route: RouteEntry;
  params: PathParameters;
}

/** Finds the route of a path (no query string), or undefined. */
export type RouteMatcher = (path: string) => MatchedRoute | undefined;

interface CompiledRoute {
  route: RouteEntry;
  /** Index of the capture group that is defined when this alternative matched. */
  group: number;
  /** Parameter names with the index of the group holding each. */
  parameters: readonly (readonly [string, number])[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Compiles the templates of `routes` into one anchored alternation, tried in table order, so a literal
 * listed before a template it overlaps wins as it does in @koa/router. A template whose parameter has no
 * pattern in FAST_PARAMETER_PATTERNS is refused at start-up, not matched loosely.
 */
export function compileRouteMatcher(routes: RouteTable, options: { rememberPaths?: number } = {}): RouteMatcher {
  const compiled: CompiledRoute[] = [];
  const alternatives: string[] = [];
  let groups = 0;
  for (const route of routes) {
    const group = ++groups;
    const parameters: [string, number][] = [];
    const source = route.path.split(/(:[A-Za-z0-9_]+)/).map((part) => {
      if (!part.startsWith(':')) return escapeRegExp(part);
      const name = part.slice(1);
      const pattern = FAST_PARAMETER_PATTERNS[name];
      if (pattern === undefined) throw new Error(`route ${route.path}: no fast-path pattern for parameter :${name}`);
      parameters.push([name, ++groups]);
      return `(${pattern})`;
    }).join('');
    alternatives.push(`(${source})`);
    compiled.push({ route, group, parameters });
  }
  if (compiled.length === 0) return () => undefined;
  // Parameter patterns hold only non-capturing groups, so the group numbers counted above are exact.
  const expression = new RegExp(`^(?:${alternatives.join('|')})$`);
  const matchPath = (path: string): MatchedRoute | undefined => {
    const match = expression.exec(path);
    if (match === null) return undefined;
    const found = compiled.find((candidate) => match[candidate.group] !== undefined);
    if (found === undefined) return undefined;
    const params: PathParameters = {};
    for (const [name, index] of found.parameters) params[name] = match[index];
    // Frozen: one answer is handed to every request for its path, so none may change it for the next.
    return Object.freeze({ route: found.route, params: Object.freeze(params) });
  };
  // The answer per path (null: no route), so a path asked again costs one map read rather than the
  // alternation, the group search and a parameter object. Paths are the clients' to choose: past the
  // bound the table starts over rather than grow.
  const rememberPaths = options.rememberPaths ?? REMEMBERED_PATHS;
  const remembered = new Map<string, MatchedRoute | null>();
  return (path) => {
    const known = remembered.get(path);
    if (known !== undefined) return known ?? undefined;
    const matched = matchPath(path);
    if (remembered.size >= rememberPaths) remembered.clear();
    remembered.set(path, matched ?? null);
    return matched;
  };
}

/** How many paths a matcher remembers the answer of, at most: far more than the collection and record paths one gateway serves hot. */
const REMEMBERED_PATHS = 8192;
