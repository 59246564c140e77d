/**
 * The opaque, tamper-evident `nextCursor` of the change feed: the signing secret's identifier, a compact
 * JSON position (base64url) and a truncated HMAC-SHA256 of both under that secret. The identifier lets a
 * gateway tell a cursor signed under a secret it does not hold (a deployment fault) from a forged one.
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

/** A cursor secret with its public identifier (made only by `cursorKey`). */
export interface CursorKey {
  /** 8 base64url characters of an HMAC of a fixed text: names the secret in cursors and logs, reveals nothing of it. */
  readonly id: string;
  readonly secret: Buffer;
}

/** What a cursor text turned out to be. */
export type DecodedCursor =
  | { readonly kind: 'position'; readonly cursor: ChangeCursor }
  /** Malformed, forged, tampered with, or an old-format cursor under a secret no longer held. */
  | { readonly kind: 'invalid' }
  /** Well-formed, but signed under a secret this gateway does not hold: `secretId` names it. */
  | { readonly kind: 'unknown-secret'; readonly secretId: string };

// Bumped if the payload ever changes meaning; old cursors then fail as INVALID_CURSOR instead of misreading.
const VERSION = 1;
// 128 bits is far beyond guessing, and keeps the cursor short.
const MAC_BYTES = 16;
// 48 bits: secrets a deployment ever holds at once are a handful, so identifiers never collide by chance.
const ID_BYTES = 6;
// Separates this use of the secret from any other the gateway may add.
const DOMAIN = 'hra change-feed cursor\0';
const ID_DOMAIN = 'hra change-feed cursor secret id\0';
// `<id>.<payload>.<mac>`, within the 1,024 characters parse-change-query.ts admits.
const SHAPE = /^([A-Za-z0-9_-]{8})\.([A-Za-z0-9_-]{1,990})\.([A-Za-z0-9_-]{22})$/;
// `<payload>.<mac>`, signed before cursors named their secret; still accepted.
const OLD_SHAPE = /^([A-Za-z0-9_-]{1,1000})\.([A-Za-z0-9_-]{22})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Names a secret: the identifier is a function of the secret alone, so every gateway holding it agrees. */
export function cursorKey(secret: Buffer): CursorKey {
  const id = createHmac('sha256', secret).update(ID_DOMAIN).digest().subarray(0, ID_BYTES).toString('base64url');
  return Object.freeze({ id, secret });
}

/**
 * Signs a position. The payload holds event ids, not the dataset revision: ids are durable, so a walk
 * begun under one snapshot revision continues under the next.
 */
export function encodeChangeCursor(cursor: ChangeCursor, key: CursorKey): string {
  const payload = Buffer.from(JSON.stringify({ v: VERSION, max: cursor.snapshotMaxId, before: cursor.beforeId, since: cursor.since, city: cursor.city })).toString('base64url');
  const signed = `${key.id}.${payload}`;
  return `${signed}.${mac(signed, key.secret)}`;
}

/** Reads a cursor against the secrets a gateway accepts (`keys`, any order). */
export function decodeChangeCursor(text: string, keys: readonly CursorKey[]): DecodedCursor {
  const parts = SHAPE.exec(text);
  if (parts !== null) {
    const [, id = '', payload = '', given = ''] = parts;
    const key = keys.find((candidate) => candidate.id === id);
    if (key === undefined) {
      // Only a payload a gateway could have written is blamed on a foreign secret; garbage stays the client's.
      return toCursor(parsePayload(payload)) === undefined ? INVALID : { kind: 'unknown-secret', secretId: id };
    }
    return sameMac(given, `${id}.${payload}`, key.secret) ? position(payload) : INVALID;
  }
  const old = OLD_SHAPE.exec(text);
  if (old === null) return INVALID;
  const [, payload = '', given = ''] = old;
  // An old cursor names no secret: each held one is tried, and a miss cannot be told from a forgery.
  return keys.some((key) => sameMac(given, payload, key.secret)) ? position(payload) : INVALID;
}

const INVALID: DecodedCursor = Object.freeze({ kind: 'invalid' });

function mac(signed: string, secret: Buffer): string {
  return createHmac('sha256', secret).update(DOMAIN).update(signed).digest().subarray(0, MAC_BYTES).toString('base64url');
}

// Compared as text, so a second spelling of the same MAC bytes is refused too.
function sameMac(given: string, signed: string, secret: Buffer): boolean {
  return timingSafeEqual(Buffer.from(given), Buffer.from(mac(signed, secret)));
}

function position(payload: string): DecodedCursor {
  const cursor = toCursor(parsePayload(payload));
  return cursor === undefined ? INVALID : { kind: 'position', cursor };
}

function parsePayload(payload: string): unknown {
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
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
