/**
 * Contract and dataset versioning headers (spec 4.1, 9). A deprecated route's headers (spec 9.4) are the
 * route's own, sent by its step in both adapters (gateway/pipeline/deprecation-headers.ts).
 */
import type { Middleware } from 'koa';
import type { GatewayState } from './gateway-state.ts';
import { NOSNIFF_HEADER } from './nosniff-header.ts';

/**
 * Sets `X-API-Version` (and NOSNIFF_HEADER, which goes wherever it goes) on every response, and
 * `X-Dataset-Revision` on successful ones (never on errors).
 */
export function versioningHeaders(apiVersion: string): Middleware<GatewayState> {
  return async (ctx, next) => {
    ctx.set('X-API-Version', apiVersion);
    ctx.set(...NOSNIFF_HEADER);
    await next();
    if (ctx.status < 400) ctx.set('X-Dataset-Revision', ctx.state.snapshot.revision);
  };
}
