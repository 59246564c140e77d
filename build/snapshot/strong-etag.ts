/** The strong ETag of a stored body. */
import { createHash } from 'node:crypto';

/** A strong ETag over the exact bytes served. */
export function strongEtag(bytes: Uint8Array): string {
  return strongEtagOfDigest(createHash('sha256').update(bytes).digest());
}

/** The strong ETag of a body whose SHA-256 is `digest` (the same as strongEtag of the body). */
export function strongEtagOfDigest(digest: Uint8Array): string {
  return `"${Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('base64url').slice(0, 32)}"`;
}
