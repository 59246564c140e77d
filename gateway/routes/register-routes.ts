/** Registers the routes of a route table with @koa/router, each behind the access chain of its class. */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { licensedAccess } from '../access/licensed-access.ts';
import { publicAccess } from '../access/public-access.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import type { RouteDependencies } from './route-dependencies.ts';
import type { RouteEntry, RouteTable } from './route-entry.ts';

/** The middleware a route's access class puts before its handler (STYLE 7): metering, and for licensed routes key, tier and scope. */
function accessChain(route: RouteEntry, deps: RouteDependencies): Middleware<GatewayState>[] {
  switch (route.access) {
    case 'public': return [publicAccess({ limiter: deps.access.limiter, now: deps.now })];
    case 'licensed': return [licensedAccess(deps.access, route.scope)];
    case 'probe': return [];
  }
}

/** Registers every route in table order, which decides between overlapping templates. */
export function registerRoutes(router: Router<GatewayState>, routes: RouteTable, deps: RouteDependencies): void {
  for (const route of routes) {
    router.register(route.path, [...route.methods], [...accessChain(route, deps), route.handler(deps)]);
  }
}
