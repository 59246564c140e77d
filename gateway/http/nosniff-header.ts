/**
 * `X-Content-Type-Options: nosniff`, sent on every response of the gateway and of its metrics port, whatever
 * the status and whichever layer answers (Koa, the fast path, the HTTP server's own refusals): a browser
 * must take a body for the Content-Type it is sent with, never guess (a JSON error read as HTML, say).
 */
export const NOSNIFF_HEADER = ['X-Content-Type-Options', 'nosniff'] as const;
