/**
 * What issue 40's page reading changes on real PDFs kept outside the repository: per page, the time of
 * pdf.js's text content alone (what the reading used before) and of the whole reading now (text content,
 * operator list for hidden text, annotations for form values, column order), and how many pages each new
 * rule touches. Usage: node --import tsx scripts/bench/measure-pdf-layout.ts DIR... (prints JSON).
 * With `--labels FILE` it measures accuracy instead (measure-quote-labels.ts): each labelled quote judged
 * by the quote check's own extraction and matcher, tallied by format and truth.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dropHiddenPdfText } from '../../build/quotes/drop-hidden-pdf-text.ts';
import { findHiddenPdfText } from '../../build/quotes/find-hidden-pdf-text.ts';
import { joinPdfTextItems, type PdfTextItem } from '../../build/quotes/join-pdf-text-items.ts';
import { orderPdfTextColumns } from '../../build/quotes/order-pdf-text-columns.ts';
import { placeFormFieldValues, type PdfAnnotation } from '../../build/quotes/place-form-field-values.ts';

const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');

const labelsAt = process.argv.indexOf('--labels');
if (labelsAt !== -1) {
  const { measureQuoteLabels } = await import('./measure-quote-labels.ts');
  console.log(JSON.stringify(await measureQuoteLabels(process.argv[labelsAt + 1]!), null, 2));
  process.exit(0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
}

const before: number[] = [];
const after: number[] = [];
const touched = { documents: 0, pages: 0, columns: 0, hiddenRuns: 0, pagesWithHidden: 0, fieldValues: 0 };
for (const dir of process.argv.slice(2)) {
  for (const name of readdirSync(dir).filter((file) => file.toLowerCase().endsWith('.pdf')).sort()) {
    let document;
    try {
      document = await pdfjs.getDocument({ data: new Uint8Array(readFileSync(join(dir, name))), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
    } catch {
      continue;
    }
    touched.documents += 1;
    for (let number = 1; number <= Math.min(document.numPages, 20); number++) {
      const page = await document.getPage(number);
      let start = performance.now();
      const items: PdfTextItem[] = (await page.getTextContent()).items.flatMap((item) => ('str' in item ? [item] : []));
      joinPdfTextItems(items);
      before.push(performance.now() - start);
      page.cleanup();
      const again = await document.getPage(number);
      start = performance.now();
      const fresh: PdfTextItem[] = (await again.getTextContent()).items.flatMap((item) => ('str' in item ? [item] : []));
      const operators = await again.getOperatorList();
      const hidden = findHiddenPdfText(operators.fnArray, operators.argsArray, pdfjs.OPS, again.view as [number, number, number, number]);
      const annotations = (await again.getAnnotations({ intent: 'display' })) as PdfAnnotation[];
      const placed = placeFormFieldValues(dropHiddenPdfText(fresh, hidden), annotations);
      const ordered = orderPdfTextColumns(placed);
      joinPdfTextItems(ordered);
      after.push(performance.now() - start);
      touched.pages += 1;
      if (ordered !== placed) touched.columns += 1;
      touched.hiddenRuns += hidden.length;
      if (hidden.length > 0) touched.pagesWithHidden += 1;
      touched.fieldValues += placed.length - fresh.length;
      again.cleanup();
    }
    await document.destroy();
  }
}
console.log(JSON.stringify({ ...touched, medianMsBefore: Number(median(before).toFixed(1)), medianMsAfter: Number(median(after).toFixed(1)), totalMsBefore: Math.round(before.reduce((a, b) => a + b, 0)), totalMsAfter: Math.round(after.reduce((a, b) => a + b, 0)) }));
