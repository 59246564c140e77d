/**
 * The change feed's handler and scope rule (spec 4.3, 6). Decisions where the spec says "not shown":
 * - `since` is required (no default); `limit` defaults to 100. Repeated, empty or non-canonical values
 *   (`limit=010`, `limit=1.5`) are 400s; other query parameters are ignored.
 * - `city` is validated by the same function in the trial scope rule and here, so a malformed slug is a
 *   400 INVALID_CITY_SLUG for every tier. A well-formed slug that is not a live city is a 400 UNKNOWN_CITY:
 *   spec 4.3 gives this route no 404 and spec 7 files an invalid city slug of the feed under 400 (unlike the
 *   program routes, where the city is the resource). For trial keys the access check runs first, so its
 *   400/403 come before ours.
 * - Keyset pagination over raw event ids, newest first. The first page freezes `snapshotMaxId` into the
 *   cursor; later pages never read above it. A cursor holds ids, not the dataset revision, so it keeps
 *   working across snapshot swaps; it is refused (400 INVALID_CURSOR) when forged, malformed, or sent
 *   with another `since` or `city`.
 * - A request examines at most max(4 x limit, 1000) raw rows; `note` says so when a page stops short of
 *   `limit` with `hasMore` true (possibly with no changes at all), and is null otherwise.
 * - Storage failures while reading events are a 503 DATASET_UNAVAILABLE, never an empty feed (spec 7).
 * - A cursor whose bound is above this snapshot's newest event was issued by a newer revision (a rolling
 *   deploy puts gateways of two revisions behind one balancer, sharing the cursor secret). Reading it here
 *   would page past events this file lacks, below the bound the body then claims, silently skipping them:
 *   it is a 503 CHANGE_FEED_BEHIND_CURSOR with Retry-After, so the client retries (likely on a newer
 *   gateway). Events are append-only, so an older cursor on a newer snapshot stays exact.
 */
import { LRUCache } from 'lru-cache';
import type { ScopeRule } from '../access/licensed-access.ts';
import { decodeChangeCursor, encodeChangeCursor } from '../changes/change-cursor.ts';
import type { CursorKeyring } from '../changes/cursor-keyring.ts';
import { changeFeedCity } from '../changes/change-feed-city.ts';
import { CHANGE_SKIPPED_NOTE, changeFeedEnvelope } from '../changes/change-feed-envelope.ts';
import { createChangeQueryMemo } from '../changes/change-query-memo.ts';
import type { ChangeQuery } from '../changes/parse-change-query.ts';
import { readChangePage, type ChangePage } from '../changes/read-change-page.ts';
import { ApiError } from '../http/api-error.ts';
import { ENTRY_OVERHEAD_BYTES } from '../programs/cache-budget.ts';
import { parseQuery } from '../http/parse-query.ts';
import { jsonReply } from '../pipeline/json-reply.ts';
import { DATASET_RETRY_AFTER_SECONDS } from '../snapshot/dataset-unavailable.ts';
import type { RouteReply, RouteRequest } from '../pipeline/route-exchange.ts';
import type { RouteHandlerFactory } from './route-entry.ts';

/** Seconds a client waits before retrying a cursor this gateway is behind: about one host's turn in a rolling deploy. */
export const BEHIND_CURSOR_RETRY_SECONDS = 5;

/** Seconds a client waits before retrying a cursor signed under a secret this gateway lacks: a balancer's next pick may be its issuer. */
export const CURSOR_SECRET_MISMATCH_RETRY_SECONDS = 5;

/** Trial keys must name one of their cities in `city` (spec 5.6); the slug is checked before metering. */
export const CHANGE_FEED_SCOPE: ScopeRule = { city: (request) => changeFeedCity(parseQuery(request.querystring)), trialCityRequired: true };

/** The change feed's handler, with its page cache. */
export const changeFeedHandler: RouteHandlerFactory = (deps) => {

  // A page is a function of the revision and the query alone (the snapshot never changes, and the signing
  // secret changes only by adoption, which empties the store): polling clients asking the same page get the
  // stored bytes. A query that fails (a bad cursor, an unknown city) throws before anything is stored.
  const pages = new LRUCache<string, Buffer>({ maxSize: deps.changePageBytes, sizeCalculation: (body, key) => body.length + key.length + ENTRY_OVERHEAD_BYTES });
  deps.onSnapshotFault(() => pages.clear());
  // A stored page's nextCursor is signed under the secret of its day; new pages carry the adopted one.
  deps.cursorKeys.onAdopt(() => pages.clear());

  // Each query text is parsed once, and its page key made once per revision (change-query-memo.ts).
  const readQuery = createChangeQueryMemo();

  // A stored page, for the fast path: a page not yet stored costs a storage read, which waits for metering.
  const atHand = (request: RouteRequest): RouteReply | undefined => {
    const stored = pages.get(readQuery(request.querystring).pageKey(request.snapshot.revision));
    return stored === undefined ? undefined : jsonReply(stored);
  };

  const handle = (request: RouteRequest): RouteReply => {
    const { snapshot } = request;
    const remembered = readQuery(request.querystring);
    const { query } = remembered;
    const pageKey = remembered.pageKey(snapshot.revision);
    const stored = pages.get(pageKey);
    if (stored !== undefined) return jsonReply(stored);
    if (query.city !== undefined && !snapshot.city(query.city)) {
      throw new ApiError(400, 'UNKNOWN_CITY', `query parameter city '${query.city}' is not a licensed live city`);
    }
    // A first page freezes the newest id as the walk's bound (rule 3); later pages carry it in the cursor.
    const maxId = snapshot.maxChangeId();
    const position = query.cursor === undefined ? { snapshotMaxId: maxId, beforeId: maxId + 1 } : resume(query, query.cursor, deps.cursorKeys);
    if (position.snapshotMaxId > maxId) {
      throw new ApiError(503, 'CHANGE_FEED_BEHIND_CURSOR', `this cursor was issued by a newer revision than ${snapshot.revision}, which holds events up to ${maxId} only; retry the same request`, { retryAfter: BEHIND_CURSOR_RETRY_SECONDS });
    }
    const page = readStored(() =>
      readChangePage((pageRequest) => snapshot.changes(pageRequest), { ...position, city: query.city, sinceMillis: query.sinceMillis, limit: query.limit }),
    );
    const nextCursor = page.hasMore
      ? encodeChangeCursor({ snapshotMaxId: position.snapshotMaxId, beforeId: page.resumeBeforeId, since: query.since, city: query.city ?? null }, deps.cursorKeys.signing)
      : null;
    const body = changeFeedEnvelope({
      bodies: page.changes.map((change) => change.body),
      datasetRevision: snapshot.revision,
      since: query.since,
      windowStart: query.windowStart,
      snapshotMaxId: position.snapshotMaxId,
      hasMore: page.hasMore,
      nextCursor,
      note: page.hasMore && page.changes.length < query.limit ? CHANGE_SKIPPED_NOTE : null,
    });
    pages.set(pageKey, body);
    return jsonReply(body);
  };
  return Object.assign(handle, { atHand });
};

function resume(query: ChangeQuery, text: string, keys: CursorKeyring): { snapshotMaxId: number; beforeId: number } {
  const decoded = decodeChangeCursor(text, keys.held);
  if (decoded.kind === 'unknown-secret') {
    keys.noteUnknownSecret(decoded.secretId);
    throw new ApiError(503, 'CURSOR_SECRET_MISMATCH', `this cursor was signed by another gateway of this service under cursor secret ${decoded.secretId}, which this gateway does not hold: a deployment fault, not the client's; retry the same request`, { retryAfter: CURSOR_SECRET_MISMATCH_RETRY_SECONDS });
  }
  if (decoded.kind === 'invalid') throw new ApiError(400, 'INVALID_CURSOR', 'query parameter cursor is not a cursor this service issued');
  const { cursor } = decoded;
  // Spec 4.3 rule 1: a walk keeps its since and city; another pair would silently skip or repeat events.
  if (cursor.since !== query.since || cursor.city !== (query.city ?? null)) {
    throw new ApiError(400, 'INVALID_CURSOR', 'this cursor belongs to a walk with another since or city; send both unchanged on every page');
  }
  return { snapshotMaxId: cursor.snapshotMaxId, beforeId: cursor.beforeId };
}

// Spec 7: change-feed storage unavailable is a retryable 503, never an empty feed. Only SQLite's own
// failures qualify; anything else is a bug and stays a logged 500.
function readStored(read: () => ChangePage): ChangePage {
  try {
    return read();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) throw new ApiError(503, 'DATASET_UNAVAILABLE', 'change-feed storage is unavailable', { retryAfter: DATASET_RETRY_AFTER_SECONDS });
    throw error;
  }
}
