/** The OpenAPI 3.1 description (spec 1.3, 4.2, 4.4), serialized once, served with a strong ETag. */
import { createHash } from 'node:crypto';
import { cacheableReply } from '../pipeline/json-reply.ts';
import type { RouteHandlerFactory } from './route-entry.ts';

/**
 * The document depends only on code (the app builds it from its route table), so it is serialized once
 * here; its ETag has the form of the snapshot documents' (build/snapshot/write-snapshot.ts).
 */
export const openApiHandler: RouteHandlerFactory = (deps) => {
  const body = Buffer.from(JSON.stringify(deps.openApiDocument));
  const document = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
  const reply = cacheableReply(document);
  return () => reply;
};
