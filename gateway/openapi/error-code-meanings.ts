/** What each error `code` means, published in the OpenAPI description (spec 7 leaves most codes to us). */
import type { ErrorCode } from '../http/api-error.ts';

/** One line per code; a Record so a new ERROR_CODES member cannot ship undocumented. */
export const ERROR_CODE_MEANINGS: Readonly<Record<ErrorCode, string>> = {
  INVALID_PARAMETER: 'a filter or `status` query parameter is repeated, or a filter value is longer than 200 characters',
  INVALID_STATUS_FILTER: '`status` is not one of available, waitlist, closed, unknown',
  INVALID_DATE: '`since` is missing, repeated or not a calendar date (YYYY-MM-DD)',
  INVALID_LIMIT: '`limit` is empty, repeated, or not a plain integer from 1 to 1000',
  INVALID_CURSOR: '`cursor` is empty, repeated, malformed, forged, or was issued for another `since` or `city`',
  INVALID_CITY_SLUG: '`city` of the change feed is repeated or not a well-formed city slug',
  API_KEY_REQUIRED: 'no `X-Api-Key` header was sent',
  INVALID_API_KEY: 'the key is malformed or unknown',
  API_KEY_REVOKED: 'the key was revoked (for example after rotation)',
  API_KEY_EXPIRED: 'the key is past its expiry (trial keys live at most 30 days)',
  API_TRIAL_POLICY_INVALID: 'the trial key\'s stored policy is malformed; contact support',
  API_TRIAL_CITY_REQUIRED: 'a trial key called the change feed without naming an approved `city` (status 400)',
  API_TRIAL_CITY_FORBIDDEN: 'the city is outside the trial key\'s approved allowlist',
  API_TIER_FORBIDDEN: 'the national layer is reserved for paid tiers; trial keys are denied',
  NOT_FOUND: 'no such city, program or route in the licensed live scope; the reason is not revealed',
  METHOD_NOT_ALLOWED: 'a method other than GET or HEAD was used; the API is read-only',
  RATE_LIMITED: 'the key\'s minute or day window, or the per-address public window, is exhausted',
  AUTH_STORAGE_UNAVAILABLE: 'the key store cannot be read; no licensed data is served unvalidated',
  RATE_LIMIT_STORAGE_UNAVAILABLE: 'rate-limit storage cannot be reached; licensed routes fail closed',
  ARTIFACT_UNAVAILABLE: 'the requested report artifact is not available in the served revision',
  DATASET_UNAVAILABLE: 'a document the served revision should hold is missing, or change-feed storage cannot be read',
  INTERNAL_ERROR: 'an unexpected failure; it is logged with the request ID and never detailed to the client',
};

/** The one status each code is sent with; a Record so the published status -> codes table is complete. */
export const ERROR_CODE_STATUS: Readonly<Record<ErrorCode, number>> = {
  INVALID_PARAMETER: 400,
  INVALID_STATUS_FILTER: 400,
  INVALID_DATE: 400,
  INVALID_LIMIT: 400,
  INVALID_CURSOR: 400,
  INVALID_CITY_SLUG: 400,
  API_TRIAL_CITY_REQUIRED: 400,
  API_KEY_REQUIRED: 401,
  INVALID_API_KEY: 401,
  API_KEY_REVOKED: 403,
  API_KEY_EXPIRED: 403,
  API_TRIAL_POLICY_INVALID: 403,
  API_TRIAL_CITY_FORBIDDEN: 403,
  API_TIER_FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  AUTH_STORAGE_UNAVAILABLE: 503,
  RATE_LIMIT_STORAGE_UNAVAILABLE: 503,
  ARTIFACT_UNAVAILABLE: 503,
  DATASET_UNAVAILABLE: 503,
};
