/** Finds the dollar figure in a review's verbatim page quote that literally equals a record's amount. */

/** A figure found in a quote: exactly as the page wrote it, and where it starts (UTF-16 index). */
export interface QuotedAmount {
  text: string;
  index: number;
}

// Digits with well-formed thousands groups ("15,000", "1,250,000") or none ("15000"), then optional
// two-digit cents. The lookaheads refuse a figure that continues ("$15.5", "$1,50") so a prefix of a
// different number is never read as a match.
const FIGURE = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?(?!\d|[.,]\d)`;
// A magnitude word turns "$2.5 million" into a figure the page did not write digit for digit; the
// contract is a literal match, so such figures are not read at all.
const NO_MAGNITUDE = String.raw`(?!\s*(?:million|billion|thousand|mil|mm|[kmb])\b)`;
const DOLLAR_SIGN = new RegExp(String.raw`\$${FIGURE}${NO_MAGNITUDE}`, 'gi');
const DOLLARS_WORD = new RegExp(String.raw`(?<![\d$.,])${FIGURE}\s+dollars\b`, 'gi');

/**
 * Returns the first figure in `quote` whose value equals `amount` to the cent, or undefined.
 *
 * Accepted, and nothing else:
 * - `$` immediately followed by the figure: `$15000`, `$15,000`, `$15,000.00`, `$2,500.50`;
 * - the figure, whitespace, then the word `dollars` (any case): `15,000 dollars`, `15000.00 Dollars`.
 *
 * A figure has either no separators or commas every three digits, and either no cents or exactly two.
 * Not read: magnitude words or suffixes (`$2.5 million`, `$15k`), spelled-out numbers, `$ 15,000` with
 * a space, other currencies. `amount` must be a positive finite number with at most two decimals.
 */
export function findQuotedAmount(quote: string, amount: number): QuotedAmount | undefined {
  if (!Number.isFinite(amount) || amount <= 0) return undefined;
  const cents = Math.round(amount * 100);
  // Fractions of a cent can never be written as a two-decimal figure, so they never match.
  if (Math.abs(amount * 100 - cents) > 1e-6) return undefined;
  const found = [...quote.matchAll(DOLLAR_SIGN), ...quote.matchAll(DOLLARS_WORD)]
    .filter((match) => figureCents(match[1] ?? '', match[2]) === cents)
    .sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const first = found[0];
  return first === undefined ? undefined : { text: first[0], index: first.index ?? 0 };
}

function figureCents(whole: string, fraction: string | undefined): number {
  return Number(whole.replaceAll(',', '')) * 100 + (fraction === undefined ? 0 : Number(fraction));
}
