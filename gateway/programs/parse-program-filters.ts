/** Reads the program-list query (spec 4.3) into normalized filters, or a 400 for a malformed one. */
import { FUNDING_STATUSES } from '../../build/contract/vocab-enums.ts';
import { ApiError } from '../http/api-error.ts';

/** The filter parameters of program collections, in cache-key order. */
export const FILTER_NAMES = ['type', 'income', 'project', 'special', 'category', 'status'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

/** Filters present in a request; an empty value counts as absent. */
export type ProgramFilters = Partial<Record<FilterName, string>>;

/**
 * Parses the query. A repeated parameter is a 400 (AND of two values of one exact field could only be
 * empty, so it is surely a client bug); a `status` outside its enum is a 400 INVALID_STATUS_FILTER
 * because the spec types it as an enum. Other unknown values match nothing: a valid empty collection.
 * Values are taken as sent, never trimmed: only an empty value counts as absent (the OpenAPI document's
 * rule), so `%20` is a value like any other, and `%20available` is no status.
 * Parameters that are not filters are ignored.
 */
export function parseProgramFilters(query: Readonly<Record<string, string | string[] | undefined>>): ProgramFilters {
  const filters: ProgramFilters = {};
  for (const name of FILTER_NAMES) {
    const raw = query[name];
    if (raw === undefined) continue;
    if (Array.isArray(raw)) throw new ApiError(400, 'INVALID_PARAMETER', `query parameter ${name} must be given at most once`);
    if (raw === '') continue;
    if (raw.length > 200) throw new ApiError(400, 'INVALID_PARAMETER', `query parameter ${name} is too long`);
    filters[name] = raw;
  }
  if (filters.status !== undefined && !(FUNDING_STATUSES as readonly string[]).includes(filters.status)) {
    throw new ApiError(400, 'INVALID_STATUS_FILTER', `status must be one of ${FUNDING_STATUSES.join(', ')}`);
  }
  return filters;
}

/** True when no filter is set, so the precomputed collection bytes can be sent as they are. */
export function hasNoFilters(filters: ProgramFilters): boolean {
  // Not Object.keys(filters).length: that builds an array for every collection request to learn it is empty.
  for (const name in filters) if (Object.hasOwn(filters, name)) return false;
  return true;
}
