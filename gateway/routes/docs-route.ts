/** The HTML reference at `/docs` (gateway/docs/docs-page.ts), outside the JSON contract like the probes. */
import { readRedocBundle, renderDocsPage } from '../docs/docs-page.ts';
import { sendCacheable } from '../http/send-json.ts';
import type { RouteHandlerFactory } from './route-entry.ts';

/**
 * The page depends only on code (the OpenAPI document and the installed Redoc), so it is composed once per
 * app, here, and each request sends the same bytes under the same strong ETag.
 */
export const docsHandler: RouteHandlerFactory = (deps) => {
  const info = (deps.openApiDocument as { info?: { title?: string } }).info;
  const page = renderDocsPage(deps.openApiDocument, readRedocBundle(), `${info?.title ?? 'API'} reference`);
  return (ctx) => {
    sendCacheable(ctx, page, 'text/html; charset=utf-8');
    // On the page itself; a 304 keeps the headers of the copy the client holds.
    if (ctx.status === 200) {
      ctx.set('Content-Security-Policy', page.contentSecurityPolicy);
      ctx.set('X-Content-Type-Options', 'nosniff');
    }
  };
};
