/**
 * The Koa adapter of the route pipeline: registers every route of a route table with @koa/router, each as
 * one middleware that builds a RouteRequest from Koa's context, runs the route's steps
 * (gateway/pipeline/route-chain.ts) and writes the RouteReply back. Koa's own middleware before it
 * (gateway/app.ts) renders whatever a step throws.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { encodeReply, VARY_ACCEPT_ENCODING } from '../encoding/encode-reply.ts';
import type { EncodedBodies } from '../encoding/encoded-bodies.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import { composeRoute, runRoute, type RouteChain } from '../pipeline/route-chain.ts';
import type { HeaderSink, RouteRequest } from '../pipeline/route-exchange.ts';
import type { RouteDependencies } from './route-dependencies.ts';
import type { RouteTable } from './route-entry.ts';

/** Registers every route in table order, which decides between overlapping templates. */
export function registerRoutes(router: Router<GatewayState>, routes: RouteTable, deps: RouteDependencies, encodings: EncodedBodies): void {
  registerRouteChains(router, routes.map((route) => composeRoute(route, deps)), encodings);
}

/**
 * Registers routes already composed (the app shares them with the fast path, and so every cache, the
 * compressed forms of `encodings` included).
 */
export function registerRouteChains(router: Router<GatewayState>, chains: readonly RouteChain[], encodings: EncodedBodies): void {
  for (const chain of chains) router.register(chain.route.path, [...chain.route.methods], [koaRoute(chain, encodings)]);
}

/** One route as Koa middleware. */
function koaRoute(chain: RouteChain, encodings: EncodedBodies): Middleware<GatewayState> {
  return async (ctx) => {
    const request: RouteRequest = {
      method: ctx.method,
      params: (ctx as { params?: RouteRequest['params'] }).params ?? {},
      querystring: ctx.querystring,
      snapshot: ctx.state.snapshot,
      header: (name) => ctx.get(name),
      clientAddress: () => ctx.ip,
    };
    const setHeader: HeaderSink = { push: (name, value) => ctx.set(name, value) };
    // Set before any step can refuse, so a refusal the error renderer answers carries them too.
    for (const [name, value] of chain.routeHeaders) ctx.set(name, value);
    let reply;
    try {
      reply = await runRoute(chain, request, setHeader);
    } finally {
      // The request line names the key once it was metered, whatever the handler then answered.
      if (request.key !== undefined) ctx.state.key = request.key;
    }
    const encoded = encodeReply(reply, request, encodings, chain.compresses);
    if (encoded.status === 200) for (const [name, value] of reply.headers ?? []) ctx.set(name, value);
    for (const [name, value] of chain.successHeaders) ctx.set(name, value);
    for (const [name, value] of encoded.headers) ctx.set(name, value);
    if (encoded.vary) ctx.vary(VARY_ACCEPT_ENCODING);
    if (encoded.status === 304 || encoded.body === undefined) {
      ctx.status = 304;
      return;
    }
    ctx.type = reply.contentType ?? 'application/json';
    ctx.body = encoded.body;
  };
}
