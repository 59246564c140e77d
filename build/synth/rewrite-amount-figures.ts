/**
 * Rewrites the dollar figures of a text that state one amount so they state another, keeping how the
 * figure was written: a quote that literally matched its template row's amount must literally match the
 * synthetic row's amount, or the confidence distribution would drift from the template's.
 */
import { findQuotedAmount } from '../derive/find-quoted-amount.ts';

/** Returns `text` with every figure equal to `from` (as findQuotedAmount reads figures) written as `to`. */
export function rewriteAmountFigures(text: string, from: number, to: number): string {
  if (from === to) return text;
  let result = '';
  let rest = text;
  for (let found = findQuotedAmount(rest, from); found !== undefined; found = findQuotedAmount(rest, from)) {
    result += rest.slice(0, found.index) + restyle(found.text, to);
    rest = rest.slice(found.index + found.text.length);
  }
  return result + rest;
}

function restyle(written: string, amount: number): string {
  const figure = /(\d[\d,]*)(\.\d{2})?/.exec(written);
  if (!figure) return written;
  const whole = Math.floor(amount);
  const digits = figure[1]?.includes(',') ? groupThousands(whole) : String(whole);
  const cents = figure[2] === undefined ? '' : `.${String(Math.round((amount - whole) * 100)).padStart(2, '0')}`;
  return written.slice(0, figure.index) + digits + cents + written.slice(figure.index + figure[0].length);
}

// Written out instead of toLocaleString so the bytes never depend on the host's ICU data.
function groupThousands(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
