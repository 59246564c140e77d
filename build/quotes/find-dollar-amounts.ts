/**
 * The dollar amounts a page states, as candidates for a maintainer correcting a record's `maxAmount` when
 * its quote is no longer found (issue 22 item 6). Candidates only: nothing here is applied to the corpus.
 * corpus/README.md ("Quote matching") lists what is and is not recognized; the tests hold each row.
 */

/** One amount as the page writes it, and its value in dollars. */
export interface StatedAmount {
  /** The matched text, as in the page (`$12K`, `5.000 dólares`). */
  text: string;
  /** Dollars, rounded to the cent: `$12,000` -> 12000, `$12k` -> 12000, `$1.5 million` -> 1500000. */
  value: number;
}

// A number in one of three shapes, each captured separately so its separators are read the right way:
//   1 comma thousands, optional dot cents (English):   12,000   12,000.00
//   2 dot thousands, optional comma cents (Spanish):   12.000   12.000,50
//   3 plain digits, optional dot and one or two decimals: 12000  1.5  12.50
// A number must not run on into another digit or separated digit, so `$12,0000` and `$1.234.5` are not
// read at all (not as $12,000 or $12), and is not followed by Spanish `mil` (thousand; slang for million
// in English): `$10 mil` is left out rather than read as $10.
const NUMBER = String.raw`(?:(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?)|(\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?)|(\d+(?:\.\d{1,2})?))(?!\d|[.,]\d|\s?mil(?!\p{L}))`;
// A multiplier: `k` and `m` only attached to the number and not followed by a letter (`$12k`, `$1.5M`, not
// `$5 km`); the words after an optional space. Spanish `mil` is left out: in English it is slang for million.
const MULTIPLIER = String.raw`(?:(k|m)(?![\p{L}\d])|\s?(million|millones|mill[oó]n|billion)(?![\p{L}]))`;
const CURRENCY_WORD = String.raw`(?:dollars?|d[oó]lares|d[oó]lar|usd)(?![\p{L}])`;

// Two forms, one expression so they never overlap (`$12,000 dollars` is one amount):
//   a dollar sign (optionally `US$`), an optional space, the number, an optional multiplier, an optional currency word;
//   the number not preceded by a letter, digit, separator or sign, an optional multiplier, a space, a currency word.
const AMOUNT = new RegExp(
  String.raw`(?:US)?\$\s?${NUMBER}${MULTIPLIER}?(?:\s${CURRENCY_WORD})?` +
    String.raw`|(?<![\p{L}\d.,$])${NUMBER}${MULTIPLIER}?\s${CURRENCY_WORD}`,
  'giu',
);

const MULTIPLIERS: Readonly<Record<string, number>> = {
  k: 1e3,
  m: 1e6,
  million: 1e6,
  millon: 1e6,
  'millón': 1e6,
  millones: 1e6,
  billion: 1e9,
};

function readNumber(english: string | undefined, spanish: string | undefined, plain: string | undefined): number {
  if (english !== undefined) return Number(english.replaceAll(',', ''));
  if (spanish !== undefined) return Number(spanish.replaceAll('.', '').replace(',', '.'));
  return Number(plain);
}

/**
 * Returns the amounts `text` states, in page order, each value once (the first text that states it).
 * Zero is left out: `$0` is never a candidate maximum.
 */
export function findDollarAmounts(text: string): StatedAmount[] {
  const found: StatedAmount[] = [];
  const seen = new Set<number>();
  for (const match of text.matchAll(AMOUNT)) {
    // Groups 1-5 belong to the dollar-sign form, 6-10 to the currency-word form.
    const offset = match[1] !== undefined || match[2] !== undefined || match[3] !== undefined ? 0 : 5;
    const base = readNumber(match[1 + offset], match[2 + offset], match[3 + offset]);
    const multiplierWord = (match[4 + offset] ?? match[5 + offset])?.toLowerCase();
    const multiplier = multiplierWord === undefined ? 1 : (MULTIPLIERS[multiplierWord] ?? 1);
    // Rounded to the cent: 1.1 * 1e6 is 1100000.0000000002 in binary floating point.
    const value = Math.round(base * multiplier * 100) / 100;
    if (value === 0 || seen.has(value)) continue;
    seen.add(value);
    found.push({ text: match[0], value });
  }
  return found;
}
