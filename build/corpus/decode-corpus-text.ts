/**
 * Decodes a corpus file's bytes as strict UTF-8. `readFileSync(path, 'utf8')` would silently turn invalid
 * bytes into U+FFFD, so the revision would hash text that is not in the file; here they are refused by line.
 */
import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import type { CorpusProblem } from './corpus-problem.ts';

/** A decoded file, and the 1-based lines whose bytes are not UTF-8 (already reported). */
export interface DecodedText {
  text: string;
  invalidLines: ReadonlySet<number>;
}

const BYTE_ORDER_MARK = '\ufeff';
const NEWLINE = 0x0a;

/**
 * Decodes `bytes`, reporting every line that holds bytes that are not UTF-8 and a byte-order mark at the
 * start (RFC 8259 forbids adding one, and the corpus refuses it rather than ignoring it, so every reader
 * sees the same text). The text returned has the mark removed and invalid bytes as U+FFFD, so the rest of
 * the file can still be checked; the problems already make the load fail.
 */
export function decodeCorpusText(bytes: Buffer, file: string, problems: CorpusProblem[]): DecodedText {
  const invalidLines = new Set<number>();
  // isUtf8 is a strict check (no overlong forms, surrogates or code points past U+10FFFF), as fast as the
  // decoding itself; toString then only decodes, and keeps a leading U+FEFF so it can be reported.
  let text: string;
  if (isUtf8(bytes)) {
    text = bytes.toString('utf8');
  } else {
    // A newline byte never occurs inside a multi-byte UTF-8 sequence, so each line can be checked alone.
    let line = 1;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); start <= bytes.length; end = bytes.indexOf(NEWLINE, start)) {
      const stop = end === -1 ? bytes.length : end;
      if (!isUtf8(bytes.subarray(start, stop))) {
        invalidLines.add(line);
        problems.push({ file, line, path: '$', message: 'holds bytes that are not UTF-8 (corpus files are UTF-8 text)' });
      }
      line += 1;
      start = stop + 1;
    }
    // The WHATWG decoder never lets a broken sequence swallow the newline after it, so line numbers hold.
    text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  }
  if (text.startsWith(BYTE_ORDER_MARK)) {
    problems.push({ file, line: 1, path: '$', message: 'byte-order mark at start of file (save the file as UTF-8 without BOM)' });
    text = text.slice(BYTE_ORDER_MARK.length);
  }
  return { text, invalidLines };
}
