/** The HTML reference at `/docs` (gateway/docs/docs-page.ts), outside the JSON contract like the probes. */
import { readRedocBundle, renderDocsPage } from '../docs/docs-page.ts';
import { cacheableReply } from '../pipeline/json-reply.ts';
import type { HeaderList } from '../pipeline/route-exchange.ts';
import type { RouteHandlerFactory } from './route-entry.ts';

const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/**
 * The page depends only on code (the OpenAPI document and the installed Redoc), so it is composed once per
 * app, here, and each request sends the same bytes under the same strong ETag.
 */
export const docsHandler: RouteHandlerFactory = (deps) => {
  const info = (deps.openApiDocument as { info?: { title?: string } }).info;
  const page = renderDocsPage(deps.openApiDocument, readRedocBundle(), `${info?.title ?? 'API'} reference`);
  // On the page itself (its ETag is the content coding's, gateway/encoding/encode-reply.ts); a 304 keeps the headers of the copy the client holds.
  const pageHeaders: HeaderList = [
    ['Content-Security-Policy', page.contentSecurityPolicy],
  ];
  const reply = { ...cacheableReply(page), contentType: HTML_CONTENT_TYPE, headers: pageHeaders };
  return () => reply;
};
