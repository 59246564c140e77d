/** Koa's own query parser (koa/lib/search-params.js), so the fast path reads a query exactly as `ctx.query` does. */
declare module 'koa/lib/search-params.js' {
  const searchParams: {
    parse(query: string): Record<string, string | string[] | undefined>;
  };
  export default searchParams;
}
