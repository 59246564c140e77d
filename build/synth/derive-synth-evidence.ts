/**
 * Copies a template row's evidence pattern onto a synthetic record, so link status, confidence tiers,
 * corrections and quarantine follow the template's distributions.
 */
import type { Correction, LinkCheck, ProgramRow, QuarantineEntry, SourceReview } from '../corpus/corpus-types.ts';
import { applyCorrections } from '../derive/apply-corrections.ts';
import { findQuotedAmount } from '../derive/find-quoted-amount.ts';
import { createPlaceSwap, scaleAmount, type SynthRowTarget } from './derive-synth-row.ts';
import { rewriteAmountFigures } from './rewrite-amount-figures.ts';
import type { TemplateRow } from './read-synth-template.ts';

/** The files' lines that belong to one synthetic record. */
export interface SynthRecordEvidence {
  reviews: SourceReview[];
  corrections: Correction[];
  quarantine: QuarantineEntry[];
}

/** The template URL's link-check attempts, re-keyed to the synthetic URL (written once per URL). */
export function deriveLinkChecks(template: TemplateRow, url: string): LinkCheck[] {
  return template.linkChecks.map((check) => ({ ...check, url }));
}

/** The template record's reviews, corrections and quarantine entries, re-keyed to `city`/`row`. */
export function deriveRecordEvidence(template: TemplateRow, city: string, row: ProgramRow, target: SynthRowTarget): SynthRecordEvidence {
  const swap = createPlaceSwap(template, target);
  const corrections = template.corrections.map((correction): Correction => ({
    ...correction, city, programId: row.id, value: correctedValue(correction, row, target, swap), reason: swap(correction.reason),
  }));
  const corrected = applyCorrections(row, corrections).maxAmount;
  const amount = typeof corrected === 'number' ? corrected : null;
  const reviews = template.reviews.map((review): SourceReview => {
    const copy: SourceReview = { ...review, city, programId: row.id };
    if (review.amountQuote !== undefined) copy.amountQuote = rewriteQuote(review.amountQuote, template, row, amount);
    return copy;
  });
  const quarantine = template.quarantine.map((entry) => ({ ...entry, city, programId: row.id, reason: swap(entry.reason) }));
  return { reviews, corrections, quarantine };
}

/** A quote that stated the template's (corrected or stored) amount states the synthetic one instead. */
function rewriteQuote(quote: string, template: TemplateRow, row: ProgramRow, amount: number | null): string {
  const pairs: Array<[number | null | undefined, number | null | undefined]> = [
    [template.effectiveAmount, amount],
    [template.row.maxAmount, row.maxAmount],
  ];
  for (const [from, to] of pairs) {
    if (typeof from === 'number' && typeof to === 'number' && to > 0 && findQuotedAmount(quote, from)) {
      return rewriteAmountFigures(quote, from, to);
    }
  }
  return quote;
}

function correctedValue(correction: Correction, row: ProgramRow, target: SynthRowTarget, swap: (text: string) => string): unknown {
  const value = correction.value;
  switch (correction.field) {
    // The synthetic name must stay the program's own, or distinct-name counts would collapse.
    case 'name': return row.name;
    case 'url': return value === null ? null : row.url;
    case 'phone': return value === null ? null : target.phone;
    case 'maxAmount': return typeof value === 'number' ? scaleAmount(value, target.amountFactor) : value;
    default: return typeof value === 'string' ? swap(value) : value;
  }
}
