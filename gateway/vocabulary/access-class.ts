/**
 * How a route is reached: `public` is keyless and metered per client address; `licensed` needs a key and
 * runs key, tier, scope and rate limit (STYLE 7); `probe` is keyless and never metered (load balancers).
 * A vocabulary below the route table, the OpenAPI generator and the pipeline (STYLE 27).
 */
export type AccessClass = 'public' | 'licensed' | 'probe';
