/** `GET /openapi.json` (spec 1.3, 4.2, 4.4): the OpenAPI 3.1 description, built once, served with a strong ETag. */
import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import { publicAccess } from '../access/public-access.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import { sendCacheable } from '../http/send-json.ts';
import { buildOpenApiDocument } from '../openapi/build-openapi-document.ts';
import type { RouteDependencies } from './route-dependencies.ts';

/**
 * Registers `/openapi.json`, metered like every keyless route. The document depends only on code, so it
 * is serialized once here; its ETag has the form of the snapshot documents' (build/snapshot/write-snapshot.ts).
 */
export function registerOpenApiRoute(router: Router<GatewayState>, deps: RouteDependencies): void {
  const body = Buffer.from(JSON.stringify(buildOpenApiDocument()));
  const document = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
  router.get('/openapi.json', publicAccess({ limiter: deps.access.limiter, now: deps.now }), (ctx) => sendCacheable(ctx, document));
}
