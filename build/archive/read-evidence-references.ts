/**
 * Streams the archive references of a corpus's evidence lines (`warcRecordId`, `payloadSha256` on link-check
 * and quote-check lines), one line at a time, so that a check over years of evidence holds one line in memory.
 */
import { createReadStream, existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describeSyntaxError } from '../corpus/parse-strict-json.ts';
import { openCorpusFile } from '../corpus/read-corpus-bytes.ts';
import { QUOTE_CHECKS_FILE } from '../corpus/quote-checks-file.ts';
import { LINK_CHECKS_FILE } from '../links/link-check-log.ts';
import { type EvidenceLineKind, type RecordBinding, recordBindingOf } from './evidence-record-binding.ts';

/** One evidence line as the archive sees it: what it judged, when, and the bytes it names (if any). */
export interface EvidenceReference {
  /** The evidence file, relative to the corpus folder. */
  readonly file: string;
  /** 1-based line number in that file. */
  readonly line: number;
  /**
   * What the verdict is about: a link attempt's URL, or a quote check's record and URL (whichever review). A
   * later line of the same subject that decides replaces this one's verdict.
   */
  readonly subject: string;
  readonly checkedAt: string;
  /**
   * Whether the line decides its subject's verdict when it is the latest: every link attempt does; a quote
   * check only when conclusive (`found`, `not-found`), since a later `inconclusive` one changes nothing served.
   */
  readonly decides: boolean;
  /** The kind of line, by its file. */
  readonly kind: EvidenceLineKind;
  /** The URL the line's record must be of (evidence-record-binding.ts). */
  readonly binding: RecordBinding;
  /** Both present, or neither ("not archived"). */
  readonly recordId: string | undefined;
  readonly payloadSha256: string | undefined;
}

/** An evidence line the archive checks cannot read; the message names its file and line. */
export class EvidenceLineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EvidenceLineError';
  }
}

/** The two evidence files whose lines name archived records, relative to the corpus folder. */
export const ARCHIVED_EVIDENCE_FILES = [LINK_CHECKS_FILE, QUOTE_CHECKS_FILE] as const;

const RECORD_ID = /^<urn:uuid:[0-9a-f-]{36}>$/i;
const SHA256 = /^[0-9a-f]{64}$/;

/** Yields every line of both evidence files in file order; a line that is not an evidence object fails naming file and line. */
export async function* readEvidenceReferences(corpusDir: string): AsyncGenerator<EvidenceReference> {
  for (const file of ARCHIVED_EVIDENCE_FILES) {
    const path = join(corpusDir, file);
    // An absent quote-checks file reads as no lines, as the revision reads it.
    if (!existsSync(path) && !isLink(path)) continue;
    const fd = openCorpusFile(path, corpusDir);
    if (typeof fd === 'string') throw new EvidenceLineError(`${path}: ${fd}`);
    const lines = createInterface({ input: createReadStream('', { fd, encoding: 'utf8' }), crlfDelay: Infinity });
    let line = 0;
    for await (const text of lines) {
      line += 1;
      if (text.trim() === '') continue;
      yield parseReference(file, line, text, join(corpusDir, file));
    }
  }
}

function parseReference(file: string, line: number, text: string, shown: string): EvidenceReference {
  let row: Record<string, unknown>;
  try {
    row = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new EvidenceLineError(`${shown}:${line}: not a JSON line (${describeSyntaxError((error as Error).message, 0).replace(/ at column 1$/, '')})`);
  }
  const where = `${shown}:${line}`;
  if (typeof row !== 'object' || row === null || typeof row.url !== 'string' || typeof row.checkedAt !== 'string') {
    throw new EvidenceLineError(`${where}: not an evidence line (no url or checkedAt)`);
  }
  const { warcRecordId, payloadSha256 } = row;
  if ((warcRecordId === undefined) !== (payloadSha256 === undefined)) throw new EvidenceLineError(`${where}: warcRecordId and payloadSha256 come together or not at all`);
  if (warcRecordId !== undefined && (typeof warcRecordId !== 'string' || !RECORD_ID.test(warcRecordId))) throw new EvidenceLineError(`${where} $.warcRecordId: ${JSON.stringify(warcRecordId)} is not a WARC record id`);
  if (payloadSha256 !== undefined && (typeof payloadSha256 !== 'string' || !SHA256.test(payloadSha256))) throw new EvidenceLineError(`${where} $.payloadSha256: ${JSON.stringify(payloadSha256)} is not a lowercase hex SHA-256`);
  const kind: EvidenceLineKind = file === QUOTE_CHECKS_FILE ? 'quote-check' : 'link-check';
  return {
    file, line, subject: evidenceSubject(kind, row), checkedAt: row.checkedAt, kind, binding: recordBindingOf(kind, row),
    decides: decidesSubject(kind, row),
    recordId: warcRecordId as string | undefined, payloadSha256: payloadSha256 as string | undefined,
  };
}

function isLink(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
}

/**
 * What a line's verdict is about: a later line of the same subject that decides replaces it. A quote check's is
 * its record's quote on the URL, whichever review: only the latest review's quote is derived, so a decided check
 * of a newer review (or an edited quote) replaces the checks of the one before, and prune may drop their pages.
 */
export function evidenceSubject(kind: EvidenceLineKind, row: Readonly<Record<string, unknown>>): string {
  return kind === 'quote-check' ? JSON.stringify(['quote', row.city, row.programId, row.url]) : JSON.stringify(['link', row.url]);
}

/** Whether a line decides its subject when latest: every link attempt; a quote check only when conclusive. */
export function decidesSubject(kind: EvidenceLineKind, row: Readonly<Record<string, unknown>>): boolean {
  return kind === 'link-check' || row.outcome === 'found' || row.outcome === 'not-found';
}
