/**
 * Whether a request target holds a malformed percent-escape (RFC 3986 2.1): a `%` not followed by two hex
 * digits, or escapes whose octets are not UTF-8. URLSearchParams and @koa/router would each pass such text
 * on undecoded, so `?type=%ZZ` read as the filter value `%ZZ`; the guards refuse it instead (400).
 */

/** True when `target` (path and query, already bounded by MAX_URL_LENGTH) cannot be percent-decoded. */
export function hasMalformedPercentEscape(target: string): boolean {
  // Most targets hold no escape at all: they cost one scan, and no decoding.
  if (!target.includes('%')) return false;
  try {
    // Escapes never straddle a `/`, `?`, `&` or `=` (those are ASCII, never UTF-8 continuation octets), so
    // decoding the whole target fails exactly when decoding one of its parts would.
    decodeURIComponent(target);
    return false;
  } catch {
    return true;
  }
}
