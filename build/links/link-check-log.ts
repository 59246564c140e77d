/** Appends link-check attempts to `evidence/link-checks.ndjson`, one complete line per write. */
import { join } from 'node:path';
import type { LinkCheck } from '../corpus/corpus-types.ts';
import { openAppendOnlyLog } from './append-only-log.ts';

/** The attempts file, relative to the corpus folder. */
export const LINK_CHECKS_FILE = 'evidence/link-checks.ndjson';

/** An open attempts file. */
export interface LinkCheckLog {
  readonly file: string;
  /** Writes one attempt as one line; when it returns, the line is in the file whole. */
  append(check: LinkCheck): void;
  close(): void;
}

/** Opens the attempts file for appending (openAppendOnlyLog says how a kill leaves it). */
export function openLinkCheckLog(corpusRoot: string): LinkCheckLog {
  const log = openAppendOnlyLog(join(corpusRoot, LINK_CHECKS_FILE));
  return {
    file: log.file,
    append(check) {
      const row: LinkCheck = { url: check.url, checkedAt: check.checkedAt, outcome: check.outcome, httpStatus: check.httpStatus };
      if (check.pageClass !== undefined) row.pageClass = check.pageClass;
      if (check.warcRecordId !== undefined) row.warcRecordId = check.warcRecordId;
      if (check.payloadSha256 !== undefined) row.payloadSha256 = check.payloadSha256;
      log.appendRow(row);
    },
    close: () => log.close(),
  };
}
