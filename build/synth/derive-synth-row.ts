/**
 * Derives one synthetic program row from a template row: the template's facets, funding status, texts
 * and deadlines, with a new id, name and URL, the place names swapped, and the amount optionally scaled.
 */
import type { ProgramRow } from '../corpus/corpus-types.ts';
import { rewriteAmountFigures } from './rewrite-amount-figures.ts';
import type { TemplateRow } from './read-synth-template.ts';

/** What makes the derived row this synthetic program rather than its template. */
export interface SynthRowTarget {
  id: string;
  name: string;
  /** Null keeps the template's "no URL on file". */
  url: string | null;
  /** Replaces the template city's name in texts: the synthetic city, or the state or region. */
  place: string;
  stateName: string;
  /** Multiplies maxAmount; see scaleAmount. */
  amountFactor: number;
  /** A fictional phone number, used where the template has one. */
  phone: string;
}

const TEXT_FIELDS = new Set(['source', 'description', 'description_es', 'deadline', 'deadline_es', 'maxAmountLabel', 'maxAmountLabel_es']);
const COPIED_FIELDS = new Set([
  'eligibilityType', 'fundingStatus', 'category', 'incomeRequirement', 'matchRate', 'projectTypes', 'specialPopulations', 'scope',
]);

/** Builds the row, in the template's key order; the template's unknown (working-note) keys are dropped. */
export function deriveSynthRow(template: TemplateRow, target: SynthRowTarget): ProgramRow {
  const swap = createPlaceSwap(template, target);
  const from = template.row.maxAmount;
  const to = scaleAmount(from, target.amountFactor);
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(template.row)) {
    if (key === 'id') row.id = target.id;
    else if (key === 'name') row.name = target.name;
    else if (key === 'url') row.url = value === null ? null : target.url;
    else if (key === 'phone') row.phone = value === null ? null : target.phone;
    else if (key === 'maxAmount') row.maxAmount = to;
    else if (TEXT_FIELDS.has(key) && typeof value === 'string') {
      const swapped = swap(value);
      row[key] = typeof from === 'number' && typeof to === 'number' ? rewriteAmountFigures(swapped, from, to) : swapped;
    } else if (TEXT_FIELDS.has(key) || COPIED_FIELDS.has(key)) row[key] = value;
  }
  return row as ProgramRow;
}

/** Scales a positive amount to a round figure of similar size; small or absent amounts are kept. */
export function scaleAmount(amount: number | null | undefined, factor: number): number | null | undefined {
  if (typeof amount !== 'number' || amount < 100 || factor === 1) return amount;
  const step = amount >= 10_000 ? 500 : amount >= 1_000 ? 100 : 10;
  return Math.max(step, Math.round((amount * factor) / step) * step);
}

/** Returns a function replacing the template city's and state's names (whole words) in a text. */
export function createPlaceSwap(template: TemplateRow, target: Pick<SynthRowTarget, 'place' | 'stateName'>): (text: string) => string {
  const pairs: Array<[RegExp, string]> = [];
  const add = (name: string, replacement: string) => {
    if (name.length < 3 || name === replacement) return;
    pairs.push([new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, 'gu'), replacement]);
  };
  add(template.city.name, target.place);
  add(template.city.state, target.stateName);
  return (text) => pairs.reduce((current, [pattern, replacement]) => current.replace(pattern, () => replacement), text);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
