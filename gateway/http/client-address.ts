/** The client address a request is metered under, read as Koa reads `ctx.ip` in the gateway's app. */
import type { IncomingMessage } from 'node:http';

/**
 * The last X-Forwarded-For entry when the gateway trusts one proxy (Koa's `proxy: true, maxIpsCount: 1`:
 * entries before it are client-written), else the socket's peer address.
 */
export function clientAddress(request: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers['x-forwarded-for'];
    const last = typeof forwarded === 'string' && forwarded !== '' ? forwarded.split(',').at(-1)?.trim() : undefined;
    if (last) return last;
  }
  return request.socket.remoteAddress ?? '';
}
