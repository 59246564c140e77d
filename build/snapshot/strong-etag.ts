/** The strong ETag of a stored body. */
import { createHash } from 'node:crypto';

/** A strong ETag over the exact bytes served. */
export function strongEtag(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
}
