/**
 * The end of a failed command: its exit code is set, and the process exits within a bound even if
 * something it opened lingers (a driver's socket left open by a failed handshake keeps Node alive until
 * the server drops it, 60 s for PostgreSQL's authentication timeout). Only the entry points call it.
 */

/** How long a failed command may take to end by itself after its one line before it is ended. */
export const FAILED_EXIT_MS = 500;

/** Sets `code` as the exit code and, when it is a failure, exits by FAILED_EXIT_MS whatever is still open. */
export function exitAfterFailure(code: number): void {
  process.exitCode = code;
  if (code !== 0) setTimeout(() => process.exit(code), FAILED_EXIT_MS).unref();
}
