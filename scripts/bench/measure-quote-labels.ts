/**
 * Accuracy of the quote check on real documents kept outside the repository, against truth a person
 * labelled from the rendered pages (issue 40 item 4). The labels file is JSON: `{ "documents": [{ "file",
 * "format"?, "quotes": [{ "truth": "visible" | "changed" | "hidden", "quote" }] }] }`, `file` relative to
 * the labels file; `format` (`pdf`, `html`) is otherwise the file's extension. Each document is read as the
 * weekly run reads a fetched page (extractPageText in this process, judgePageText), so the tally is of the
 * outcomes a quote check would record: `found`, `not-found`, or `inconclusive` with its reason.
 */
import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { extractPageText } from '../../build/quotes/extract-page-text.ts';
import { judgePageText } from '../../build/quotes/judge-page-text.ts';

/** One labelled quote: what a person sees it as on the rendered page. */
export interface LabelledQuote {
  truth: 'visible' | 'changed' | 'hidden';
  quote: string;
}

interface LabelledDocument {
  file: string;
  format?: 'pdf' | 'html';
  quotes: LabelledQuote[];
}

type Outcome = 'found' | 'not-found' | 'inconclusive';

/** The tally by format and truth, and each quote whose outcome is not what its truth wants, with why. */
export interface LabelMeasure {
  documents: number;
  quotes: number;
  table: Record<string, Record<Outcome, number>>;
  misses: Array<{ file: string; truth: string; quote: string; outcome: Outcome; reason?: string }>;
}

const CONTENT_TYPES = { pdf: 'application/pdf', html: 'text/html' } as const;

/** Judges every quote of the labels file at `labelsFile` against its document. */
export async function measureQuoteLabels(labelsFile: string): Promise<LabelMeasure> {
  const { documents } = JSON.parse(readFileSync(labelsFile, 'utf8')) as { documents: LabelledDocument[] };
  const measure: LabelMeasure = { documents: documents.length, quotes: 0, table: {}, misses: [] };
  for (const document of documents) {
    const format = document.format ?? (extname(document.file).toLowerCase() === '.pdf' ? 'pdf' : 'html');
    const body = new Uint8Array(readFileSync(resolve(dirname(labelsFile), document.file)));
    const page = await extractPageText({ body, contentType: CONTENT_TYPES[format], complete: true });
    const quotes = document.quotes.map((label) => label.quote);
    const outcomes: Array<{ outcome: Outcome; reason?: string }> = [];
    if (page.kind === 'inconclusive') {
      for (const _ of quotes) outcomes.push({ outcome: 'inconclusive', reason: page.reason });
    } else {
      const judged = judgePageText(page, quotes);
      quotes.forEach((_, index) => {
        const reason = judged.unreadable ?? judged.inconclusive?.[index] ?? undefined;
        outcomes.push(judged.found[index] === true ? { outcome: 'found' } : reason !== undefined ? { outcome: 'inconclusive', reason } : { outcome: 'not-found' });
      });
    }
    document.quotes.forEach((label, index) => {
      const { outcome, reason } = outcomes[index]!;
      const row = (measure.table[`${format} ${label.truth}`] ??= { found: 0, 'not-found': 0, inconclusive: 0 });
      row[outcome] += 1;
      measure.quotes += 1;
      const wanted = label.truth === 'visible' ? outcome === 'found' : outcome !== 'found';
      if (!wanted) measure.misses.push({ file: document.file, truth: label.truth, quote: label.quote, outcome, ...(reason === undefined ? {} : { reason }) });
    });
  }
  return measure;
}
