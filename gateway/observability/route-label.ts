/** Bounded labels for a request: its route template and method class, never a raw path or token. */
import type { Context } from 'koa';

/** The label of a request no route matched (unknown paths, refused methods, rejected URLs). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The route-table template that served the request (as @koa/router matched it), else `unmatched`. */
export function routeTemplate(ctx: Context): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched : UNMATCHED_ROUTE;
}

/** GET and HEAD as themselves; every other method as `other`, so a made-up method cannot mint a label. */
export function methodClass(method: string): 'GET' | 'HEAD' | 'other' {
  return method === 'GET' || method === 'HEAD' ? method : 'other';
}

/** `2xx`, `4xx`, ... for a status code. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}
