/**
 * The opaque, tamper-evident `nextCursor` of the change feed: a compact JSON position, base64url, and a
 * truncated HMAC-SHA256 of it under the gateway's cursor secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where a walk of the feed stands, and the query it belongs to. */
export interface ChangeCursor {
  /** The walk's frozen upper bound (spec 4.3 rule 3): the newest event id when its first page was read. */
  snapshotMaxId: number;
  /** The last event id examined; the next page reads only ids below it. */
  beforeId: number;
  /** The `since` date the walk was started with; a cursor is refused under another one. */
  since: string;
  /** The `city` the walk was started with, or null for all cities. */
  city: string | null;
}

// Bumped if the payload ever changes meaning; old cursors then fail as INVALID_CURSOR instead of misreading.
const VERSION = 1;
// 128 bits is far beyond guessing, and keeps the cursor short.
const MAC_BYTES = 16;
// Separates this use of the secret from any other the gateway may add.
const DOMAIN = 'hra change-feed cursor\0';
const SHAPE = /^([A-Za-z0-9_-]{1,1000})\.([A-Za-z0-9_-]{22})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Signs a position. The payload holds event ids, not the dataset revision: ids are durable, so a walk
 * begun under one snapshot revision continues under the next.
 */
export function encodeChangeCursor(cursor: ChangeCursor, secret: Buffer): string {
  const payload = Buffer.from(JSON.stringify({ v: VERSION, max: cursor.snapshotMaxId, before: cursor.beforeId, since: cursor.since, city: cursor.city })).toString('base64url');
  return `${payload}.${mac(payload, secret)}`;
}

/** Returns the position a cursor carries, or undefined when it is malformed, forged or signed under another secret. */
export function decodeChangeCursor(text: string, secret: Buffer): ChangeCursor | undefined {
  const parts = SHAPE.exec(text);
  if (parts === null) return undefined;
  const [, payload = '', given = ''] = parts;
  // Compared as text, so a second spelling of the same MAC bytes is refused too.
  if (!timingSafeEqual(Buffer.from(given), Buffer.from(mac(payload, secret)))) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  return toCursor(decoded);
}

function mac(payload: string, secret: Buffer): string {
  return createHmac('sha256', secret).update(DOMAIN).update(payload).digest().subarray(0, MAC_BYTES).toString('base64url');
}

// Even a correctly signed payload is checked: the secret may have signed an older payload version.
function toCursor(value: unknown): ChangeCursor | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { v, max, before, since, city } = value as Record<string, unknown>;
  if (v !== VERSION) return undefined;
  if (!Number.isSafeInteger(max) || !Number.isSafeInteger(before)) return undefined;
  const [snapshotMaxId, beforeId] = [max as number, before as number];
  if (beforeId < 1 || beforeId > snapshotMaxId) return undefined;
  if (typeof since !== 'string' || !DATE.test(since)) return undefined;
  if (city !== null && typeof city !== 'string') return undefined;
  return { snapshotMaxId, beforeId, since, city };
}
