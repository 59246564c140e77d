/**
 * The one query-string parser of the gateway, shared by the Koa routes and the fast path. Koa's own
 * (`ctx.query`, koa/lib/search-params.js) calls `getAll` once per occurrence, so `?a&a&a…` costs time
 * quadratic in the number of parameters, and 4,000 repeats fit in an 8 KiB URL (issue 11).
 * This one counts the parameters first, with a scan that stops at the first one past the bound and
 * decodes nothing, then decodes at most MAX_QUERY_PARAMETERS of them in one pass.
 */
import { ApiError } from './api-error.ts';

/**
 * Most parameters (repeats counted) a query may carry; a route reads at most six, so 32 leaves room for
 * clients' own tracking parameters while keeping the worst query's cost near a plain request's.
 */
export const MAX_QUERY_PARAMETERS = 32;

/** A parsed query: each name once, with its value, or its values in order when repeated. */
export type QueryParameters = Readonly<Record<string, string | string[]>>;

const EMPTY: QueryParameters = Object.freeze(Object.create(null) as Record<string, string>);

/**
 * Parses the query string (the text after `?`, as Koa's `ctx.querystring`) exactly as URLSearchParams
 * reads it, grouping repeated names. Throws a 400 `INVALID_PARAMETER` when it holds more than
 * MAX_QUERY_PARAMETERS parameters; the cost of that refusal is bounded by the bound, not by the text.
 * The result has no prototype, so names such as `__proto__` or `constructor` are plain parameters.
 */
export function parseQuery(text: string): QueryParameters {
  if (text === '') return EMPTY;
  // URLSearchParams drops one leading `?`; count what it will read.
  if (countParameters(text, text.startsWith('?') ? 1 : 0, MAX_QUERY_PARAMETERS + 1) > MAX_QUERY_PARAMETERS) {
    throw new ApiError(400, 'INVALID_PARAMETER', `the query string has more than ${MAX_QUERY_PARAMETERS} parameters (repeats count)`);
  }
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = query[name];
    if (seen === undefined) query[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else query[name] = [seen, value];
  }
  return query;
}

/** Non-empty `&`-separated segments of `text` from `start`, counting no further than `stopAt`. */
function countParameters(text: string, start: number, stopAt: number): number {
  let count = 0;
  for (let from = start; from <= text.length && count < stopAt;) {
    const end = text.indexOf('&', from);
    const stop = end === -1 ? text.length : end;
    if (stop > from) count += 1;
    from = stop + 1;
  }
  return count;
}
