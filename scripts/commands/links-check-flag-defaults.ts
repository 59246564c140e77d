/**
 * Defaults of `hra links check`'s numeric flags (operator contract), apart from the action: the command's
 * registration shows them in its help, and must not load the link checker to do so.
 */
import { DEFAULT_ARCHIVE_ROLL_MIB } from '../../build/archive/warc-archive-layout.ts';

export const CHECK_FLAG_DEFAULTS = {
  maxAgeDays: '6', concurrency: '32', perHost: '2', hostIntervalMs: '1000', timeoutMs: '15000', retries: '2',
  archiveRollMb: String(DEFAULT_ARCHIVE_ROLL_MIB),
} as const;
