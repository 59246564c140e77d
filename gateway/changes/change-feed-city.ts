/** Reads the optional `city` of the change feed, shared by the trial scope rule and the handler. */
import { ApiError } from '../http/api-error.ts';

// The slug grammar of the corpus: lowercase words joined by single hyphens.
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MAX_SLUG_LENGTH = 100;

/**
 * Returns the requested city slug, or undefined when `city` is absent or empty (an empty value counts as
 * absent, as the access check and the program filters treat it). A repeated or malformed slug is a 400
 * INVALID_CITY_SLUG. The access middleware calls this before the handler for trial keys, so one function
 * gives trial and paid keys the same refusal for the same malformed value.
 */
export function changeFeedCity(query: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  const raw = query.city;
  if (raw === undefined || raw === '') return undefined;
  if (Array.isArray(raw)) throw new ApiError(400, 'INVALID_CITY_SLUG', 'query parameter city must be given at most once');
  if (raw.length > MAX_SLUG_LENGTH || !SLUG.test(raw)) {
    throw new ApiError(400, 'INVALID_CITY_SLUG', `query parameter city '${raw.slice(0, MAX_SLUG_LENGTH)}' is not a city slug (lowercase letters and digits joined by single hyphens)`);
  }
  return raw;
}
