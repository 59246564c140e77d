/** The errors of access control, in one place so every route refuses alike. */
import { ApiError } from '../http/api-error.ts';
import type { KeyLookupResult } from '../keys/key-lookup.ts';

/** Maps a key lookup that is not `valid` to its 401 or 403 (spec 5.3, 5.4). */
export function keyRefusal(result: Exclude<KeyLookupResult, { kind: 'valid' }>): ApiError {
  switch (result.kind) {
    case 'missing':
      return new ApiError(401, 'API_KEY_REQUIRED', 'an API key is required in the X-Api-Key header');
    case 'malformed':
    case 'unknown':
      return new ApiError(401, 'INVALID_API_KEY', 'the API key is not valid');
    case 'revoked':
      return new ApiError(403, 'API_KEY_REVOKED', 'the API key has been revoked');
    case 'expired':
      return new ApiError(403, 'API_KEY_EXPIRED', 'the API key has expired');
    case 'trial-policy-invalid':
      return new ApiError(403, 'API_TRIAL_POLICY_INVALID', 'the trial key policy is invalid; contact support');
  }
}

/** 503 while the key store cannot be read: never licensed data unvalidated (spec 5.7). */
export const authUnavailable = () =>
  new ApiError(503, 'AUTH_STORAGE_UNAVAILABLE', 'authentication storage is unavailable; retry shortly', { retryAfter: 5 });

/** 503 while rate-limit windows cannot be counted: the service fails closed (spec 1.8). */
export const limitsUnavailable = () =>
  new ApiError(503, 'RATE_LIMIT_STORAGE_UNAVAILABLE', 'rate-limit storage is unavailable; retry shortly', { retryAfter: 1 });

/** 429 with the seconds until the blocking window ends. */
export const rateLimited = (retryAfter: number) =>
  new ApiError(429, 'RATE_LIMITED', 'request limit exceeded; back off exponentially with jitter', { retryAfter });
