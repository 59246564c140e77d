/**
 * The values typed into a PDF's form fields, read into the page's text where they are shown (issue 40
 * item 5): a filled AcroForm's text lives in the fields and their widgets' appearances, not in the page's
 * text layer, so `Agency: [City of Alpha]` read only `Agency:`.
 */
import type { PdfTextItem } from './join-pdf-text-items.ts';

/** The fields of a pdf.js annotation this reads (page.getAnnotations()). */
export interface PdfAnnotation {
  subtype?: string;
  fieldType?: string;
  fieldValue?: unknown;
  rect?: readonly number[];
  hidden?: boolean;
  defaultAppearanceData?: { fontSize?: number };
}

/** A widget's value as shown: a text field's text, a choice field's chosen entries; else nothing. */
function shownValue(annotation: PdfAnnotation): string {
  if (annotation.subtype !== 'Widget' || annotation.hidden === true) return '';
  const value = annotation.fieldValue;
  if (annotation.fieldType === 'Tx' && typeof value === 'string') return value;
  if (annotation.fieldType === 'Ch') return (Array.isArray(value) ? value : [value]).filter((entry) => typeof entry === 'string').join(' ');
  return '';
}

/**
 * Returns `items` with each filled field's value as an item of its own, placed in content order after the
 * last item on its baseline left of it (its label), else before the first item below it, else last.
 */
export function placeFormFieldValues(items: readonly PdfTextItem[], annotations: readonly PdfAnnotation[]): PdfTextItem[] {
  const placed = [...items];
  for (const annotation of annotations) {
    const value = shownValue(annotation).replace(/\s+/g, ' ').trim();
    const rect = annotation.rect;
    if (value === '' || rect === undefined || rect.length !== 4) continue;
    const [left, bottom, right, top] = [Math.min(rect[0]!, rect[2]!), Math.min(rect[1]!, rect[3]!), Math.max(rect[0]!, rect[2]!), Math.max(rect[1]!, rect[3]!)];
    const height = top - bottom;
    const declared = annotation.defaultAppearanceData?.fontSize ?? 0;
    const size = declared > 0 ? declared : Math.max(1, Math.min(12, height * 0.7));
    const x = left + 2;
    const y = bottom + Math.max(0, (height - size) / 2) + 0.2 * size;
    const item: PdfTextItem = { str: value, transform: [size, 0, 0, size, x, y], width: Math.min(right - x, value.length * size * 0.5), height: size, hasEOL: false };
    const onLine = (other: PdfTextItem) => Math.abs((other.transform[5] ?? 0) - y) <= Math.max(size, other.height) * 0.5;
    let at = placed.findLastIndex((other) => other.str.trim() !== '' && onLine(other) && (other.transform[4] ?? 0) <= x);
    if (at !== -1) at += 1;
    else at = placed.findIndex((other) => other.str.trim() !== '' && (other.transform[5] ?? 0) < y - size * 0.5);
    placed.splice(at === -1 ? placed.length : at, 0, item);
  }
  return placed;
}
