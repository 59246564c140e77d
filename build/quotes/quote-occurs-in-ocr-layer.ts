/**
 * Whether a quote is on a page whose text is an OCR layer over a scan (issue 40 item 1): the recognizer
 * drops spaces (`housecaptainis`) and confuses letters (`Resnonsibilities`, `Remodelinq`), so the quote's
 * words are compared without regard to spacing and with a bounded number of the confusions in
 * OCR_CONFUSIONS. Digits, `$`, `.` and `,` are never confused: a changed amount is never found.
 * corpus/README.md ("Quote matching") states the rule; the two change together.
 */
import { dropZeroCents } from './drop-zero-cents.ts';
import { normalizeForMatch } from './normalize-for-match.ts';

/**
 * What a quote's letters (left, lowercase, after normalization) may read as in an OCR layer (right), each
 * use costing one substitution. `1` and `|` stand for `l` or `i` only between two of the quote's letters.
 */
export const OCR_CONFUSIONS: ReadonlyArray<readonly [quote: string, page: string]> = [
  ['n', 'p'], ['p', 'n'], ['g', 'q'], ['q', 'g'], ['c', 'e'], ['e', 'c'], ['l', 'i'], ['i', 'l'],
  ['l', '1'], ['i', '1'], ['l', '|'], ['i', '|'],
  ['m', 'rn'], ['rn', 'm'], ['d', 'cl'], ['w', 'vv'],
];

/** One substitution is allowed per this many letters of the quote ... */
export const OCR_LETTERS_PER_SUBSTITUTION = 10;
/** ... and never more than this many in one quote. */
export const OCR_MAX_SUBSTITUTIONS = 3;

const LETTER = /\p{L}/u;
const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';

/** A text without its spaces, and for each remaining character whether a space came before it. */
interface Squeezed {
  chars: string;
  spaceBefore: boolean[];
}

function squeeze(text: string): Squeezed {
  let chars = '';
  const spaceBefore: boolean[] = [];
  let space = false;
  for (const char of text) {
    if (char === ' ') {
      space = true;
      continue;
    }
    chars += char;
    spaceBefore.push(space);
    space = false;
  }
  return { chars, spaceBefore };
}

/** The substitutions a quote of this many letters may use (OCR_LETTERS_PER_SUBSTITUTION, OCR_MAX_SUBSTITUTIONS). */
export function ocrSubstitutionBudget(letters: number): number {
  return Math.min(OCR_MAX_SUBSTITUTIONS, Math.floor(letters / OCR_LETTERS_PER_SUBSTITUTION));
}

/**
 * True when `quote`, normalized and without zero cents tails as for every match, occurs in the OCR layer's
 * text `page` with its spaces ignored, a page hyphen before a space (a line-end hyphen) skipped, and at most
 * ocrSubstitutionBudget confusions from OCR_CONFUSIONS; a space between two digits on one side only is a
 * mismatch (`$1 500` is not `$1500`), and the numbers are whole as in quoteOccursIn (`$2` is not in `$200`).
 */
export function quoteOccursInOcrLayer(quote: string, page: string): boolean {
  const needle = squeeze(dropZeroCents(normalizeForMatch(quote)));
  if (needle.chars.length === 0) return false;
  const text = squeeze(dropZeroCents(normalizeForMatch(page)));
  const budget = ocrSubstitutionBudget([...needle.chars].filter((char) => LETTER.test(char)).length);
  const q = needle.chars;
  const t = text.chars;
  const isLetterAt = (i: number) => i >= 0 && i < q.length && LETTER.test(q[i]!);

  // The page's number goes on from index j in direction step (a digit, or `,`/`.` then a digit, no space between).
  const numberContinues = (j: number, step: 1 | -1): boolean => {
    const at = step === 1 ? j : j - 1;
    if (at < 0 || at >= t.length) return false;
    if ((step === 1 ? text.spaceBefore[at] : text.spaceBefore[at + 1]) === true) return false;
    if (isDigit(t[at])) return true;
    return (t[at] === ',' || t[at] === '.') && isDigit(t[at + step]) && text.spaceBefore[step === 1 ? at + 1 : at] !== true;
  };

  // Matches q from i against t from j with `left` substitutions to spend; returns where the match ends in t, or -1.
  const match = (i: number, j: number, left: number): number => {
    for (;;) {
      if (i === q.length) return j;
      if (j >= t.length) return -1;
      const spacing = i > 0 && isDigit(q[i]) && isDigit(q[i - 1]) && needle.spaceBefore[i] !== text.spaceBefore[j];
      // No confusion's page side starts with the quote character it stands for, so equal characters are
      // always read as themselves and only the confusions branch.
      if (q[i] === t[j]) {
        if (spacing) return -1;
        i += 1;
        j += 1;
        continue;
      }
      if (t[j] === '-' && (text.spaceBefore[j + 1] ?? false)) {
        j += 1;
        continue;
      }
      if (left === 0) return -1;
      for (const [from, to] of OCR_CONFUSIONS) {
        if (!q.startsWith(from, i) || !t.startsWith(to, j)) continue;
        if ((to === '1' || to === '|') && !(isLetterAt(i - 1) && isLetterAt(i + 1))) continue;
        const end = match(i + from.length, j + to.length, left - 1);
        if (end !== -1) return end;
      }
      return -1;
    }
  };

  const checkStart = isDigit(q[0]);
  const checkEnd = isDigit(q[q.length - 1]);
  for (let start = 0; start < t.length; start += 1) {
    const end = match(0, start, budget);
    if (end === -1) continue;
    if (checkStart && numberContinues(start, -1)) continue;
    if (checkEnd && numberContinues(end, 1)) continue;
    return true;
  }
  return false;
}
