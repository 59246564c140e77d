/**
 * One page of the change feed (spec 4.3): keyset pagination newest first over raw event ids, skipping
 * withheld events and events detected before `since`, with bounded work per request.
 */
import type { StoredChange } from '../snapshot/open-snapshot.ts';
import { detectedAtMillis } from './detected-at-millis.ts';

/** Raw stored events, visible and withheld, with id <= maxId and id < beforeId, newest first (`Snapshot.changes`). */
export type ChangeReader = (query: { maxId: number; beforeId: number; city?: string; limit: number }) => StoredChange[];

/** What one page reads. */
export interface ChangePageRequest {
  /** The walk's frozen upper bound; no id above it is ever read (spec 4.3 rule 3). */
  snapshotMaxId: number;
  /** Only ids below this are read: `snapshotMaxId + 1` on a first page, the cursor's position after. */
  beforeId: number;
  city: string | undefined;
  /** Start of the window in epoch milliseconds; events detected earlier are skipped. */
  sinceMillis: number;
  /** Most visible events to return. */
  limit: number;
  /** Most raw rows to examine in this request; `scanBudgetFor(limit)` unless a test sets it. */
  scanBudget?: number;
}

/** A page: the events to send, and where the walk resumes if it is not over. */
export type ChangePage =
  | { changes: StoredChange[]; examined: number; hasMore: false }
  | { changes: StoredChange[]; examined: number; hasMore: true; resumeBeforeId: number };

/** Raw rows one request may examine: enough that a page of visible rows is usually filled, never unbounded. */
export function scanBudgetFor(limit: number): number {
  return Math.max(limit * 4, 1000);
}

/**
 * Reads raw events newest first in batches and keeps the visible ones inside the window, until `limit`
 * are kept, the scan budget is spent, or the raw rows run out. Ids are issued in detection order but a
 * `detectedAt` may be backdated, so the window is judged row by row and the scan never stops early on
 * time: only when raw rows run out is the walk over. `hasMore` is true exactly when raw rows older than
 * the last one examined remain below the bound, so a page may be empty yet not the last (rule 2).
 */
export function readChangePage(read: ChangeReader, request: ChangePageRequest): ChangePage {
  const { snapshotMaxId, city, sinceMillis, limit } = request;
  const budget = Math.max(1, request.scanBudget ?? scanBudgetFor(limit));
  const changes: StoredChange[] = [];
  let beforeId = request.beforeId;
  let examined = 0;
  for (;;) {
    const want = Math.min(budget - examined, Math.max(limit - changes.length, 100));
    // One row past the batch tells whether anything older remains, without a second query.
    const rows = read({ maxId: snapshotMaxId, beforeId, ...(city === undefined ? {} : { city }), limit: want + 1 });
    let used = 0;
    while (used < want && used < rows.length && changes.length < limit) {
      const row = rows[used] as StoredChange;
      used += 1;
      examined += 1;
      beforeId = row.id;
      if (row.visible && detectedAtMillis(row.detectedAt) >= sinceMillis) changes.push(row);
    }
    if (used === rows.length) return { changes, examined, hasMore: false };
    if (changes.length === limit || examined >= budget) return { changes, examined, hasMore: true, resumeBeforeId: beforeId };
  }
}
