/** The one error type of the gateway: a status, a stable `code` clients branch on, and a message (spec 7). */

/** Every code the gateway sends. Spec 5 fixes the 401/403 trial codes; the others are ours (spec 7: not shown). */
export const ERROR_CODES = [
  'INVALID_PARAMETER', 'INVALID_STATUS_FILTER', 'INVALID_DATE', 'INVALID_LIMIT', 'INVALID_CURSOR', 'INVALID_CITY_SLUG', 'UNKNOWN_CITY',
  'API_KEY_REQUIRED', 'INVALID_API_KEY',
  'API_KEY_REVOKED', 'API_KEY_EXPIRED', 'API_TRIAL_POLICY_INVALID', 'API_TRIAL_CITY_REQUIRED', 'API_TRIAL_CITY_FORBIDDEN', 'API_TIER_FORBIDDEN',
  'NOT_FOUND', 'METHOD_NOT_ALLOWED',
  'MALFORMED_REQUEST', 'MALFORMED_URL', 'REQUEST_TIMEOUT', 'URI_TOO_LONG', 'HEADERS_TOO_LARGE',
  'RATE_LIMITED',
  'AUTH_STORAGE_UNAVAILABLE', 'RATE_LIMIT_STORAGE_UNAVAILABLE', 'ARTIFACT_UNAVAILABLE', 'DATASET_UNAVAILABLE', 'CHANGE_FEED_BEHIND_CURSOR', 'CURSOR_SECRET_MISMATCH', 'SHUTTING_DOWN',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Optional members of an error body. */
export interface ApiErrorExtras {
  note?: string;
  allowedCitySlugs?: readonly string[];
  /** Seconds for `Retry-After` on 429 and 503. */
  retryAfter?: number;
  /** Response headers to send with this error (e.g. `Allow` on 405). */
  headers?: Readonly<Record<string, string>>;
}

/** An error the client is meant to see; anything else becomes a generic 500 (Koa's `expose` rule). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly extras: ApiErrorExtras;

  constructor(status: number, code: ErrorCode, message: string, extras: ApiErrorExtras = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extras = extras;
  }

  /** The JSON body: `error`, `code`, then the optional members that are set. */
  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { error: this.message, code: this.code };
    if (this.extras.note !== undefined) body.note = this.extras.note;
    if (this.extras.allowedCitySlugs !== undefined) body.allowedCitySlugs = [...this.extras.allowedCitySlugs];
    return body;
  }
}
