/**
 * Which snapshot load failures are worth trying again by themselves: the process or the system was out of
 * descriptors (EMFILE, ENFILE), or a resource was momentarily unavailable (EAGAIN). A load wraps the error
 * it met in a SnapshotRejectedError whose message quotes it, so both the `code` of the error and its
 * causes and the code quoted in a message count. Anything else (a bad file) stays refused until the
 * dataset path changes or SIGHUP asks again.
 */

/** The error codes of a failure that may pass by itself. */
export const TRANSIENT_CODES = ['EMFILE', 'ENFILE', 'EAGAIN'] as const;

const QUOTED_CODE = new RegExp(`\\b(?:${TRANSIENT_CODES.join('|')})\\b`);

/** The transient code behind `error` (its own, a cause's, or one its message quotes), or undefined. */
export function transientCodeOf(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current !== null && typeof current === 'object' && depth < 8; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (TRANSIENT_CODES as readonly string[]).includes(code)) return code;
    const quoted = typeof message === 'string' ? QUOTED_CODE.exec(message)?.[0] : undefined;
    if (quoted !== undefined) return quoted;
    current = cause;
  }
  return undefined;
}
