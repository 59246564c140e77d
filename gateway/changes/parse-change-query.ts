/** Reads the change-feed query (spec 4.3) into a validated request, or a 400 naming the bad parameter. */
import { ApiError } from '../http/api-error.ts';
import { changeFeedCity } from './change-feed-city.ts';

/** Page size when `limit` is omitted (spec 4.3: default not shown; ours). */
export const DEFAULT_CHANGE_LIMIT = 100;
/** Largest page size (spec 8). */
export const MAX_CHANGE_LIMIT = 1000;

/** A change-feed request whose parameters are all well formed; the cursor is still opaque here. */
export interface ChangeQuery {
  /** The `since` date as given, YYYY-MM-DD. */
  since: string;
  /** `since` at UTC midnight, as the envelope's `windowStart`. */
  windowStart: string;
  /** `windowStart` in epoch milliseconds; events detected at or after it are in the window. */
  sinceMillis: number;
  limit: number;
  city: string | undefined;
  cursor: string | undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// A decimal integer without sign or leading zero; the range is checked after.
const LIMIT = /^[1-9]\d{0,3}$/;
const MAX_CURSOR_LENGTH = 1024;

/**
 * Parses `since` (required), `limit`, `city` and `cursor`; other parameters are ignored, as on the
 * program routes. Every parameter may be given at most once. An empty `limit` or `cursor` is a 400,
 * not a default: a client that sends `cursor=` has lost its cursor and must not silently restart.
 */
export function parseChangeQuery(query: Readonly<Record<string, string | string[] | undefined>>): ChangeQuery {
  const { since, sinceMillis } = parseSince(query.since);
  return {
    since,
    windowStart: `${since}T00:00:00.000Z`,
    sinceMillis,
    limit: parseLimit(query.limit),
    city: changeFeedCity(query),
    cursor: parseCursorText(query.cursor),
  };
}

function parseSince(raw: string | string[] | undefined): { since: string; sinceMillis: number } {
  if (raw === undefined || raw === '') throw new ApiError(400, 'INVALID_DATE', 'query parameter since is required (YYYY-MM-DD)');
  if (Array.isArray(raw)) throw new ApiError(400, 'INVALID_DATE', 'query parameter since must be given at most once');
  const parts = DATE.exec(raw);
  const invalid = () => new ApiError(400, 'INVALID_DATE', `query parameter since '${raw.slice(0, 40)}' is not a calendar date (YYYY-MM-DD)`);
  if (parts === null) throw invalid();
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 literal; the read-back catches 2026-02-30 rolling into March.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) throw invalid();
  return { since: raw, sinceMillis: date.getTime() };
}

function parseLimit(raw: string | string[] | undefined): number {
  if (raw === undefined) return DEFAULT_CHANGE_LIMIT;
  if (Array.isArray(raw)) throw new ApiError(400, 'INVALID_LIMIT', 'query parameter limit must be given at most once');
  const limit = LIMIT.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_CHANGE_LIMIT)) {
    throw new ApiError(400, 'INVALID_LIMIT', `query parameter limit '${raw.slice(0, 40)}' must be an integer from 1 to ${MAX_CHANGE_LIMIT}`);
  }
  return limit;
}

function parseCursorText(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw new ApiError(400, 'INVALID_CURSOR', 'query parameter cursor must be given at most once');
  if (raw === '' || raw.length > MAX_CURSOR_LENGTH) throw new ApiError(400, 'INVALID_CURSOR', 'query parameter cursor is not a cursor this service issued');
  return raw;
}
