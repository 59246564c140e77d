/**
 * The pages of the links benchmark's quote checks: every URL that carries an amount quote answers a page
 * stating it, HTML for three in four and a PDF with the quote in its text layer for the fourth, so the run
 * reads and parses pages the way a city's mix of program pages and flyers would have it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Corpus } from '../../build/corpus/corpus-types.ts';
import { selectQuoteTargets } from '../../build/links/select-quote-targets.ts';

/** One in this many quote pages is a PDF. */
export const PDF_SHARE = 4;

/** What the pages are, for the report. */
export interface QuotePages {
  answer: (request: IncomingMessage, response: ServerResponse, target: URL) => boolean;
  quotes: number;
  htmlPages: number;
  pdfPages: number;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Generates every quote page of `corpus` (URLs as the fixture sees them: `http://host/path`). */
export async function createBenchQuotePages(corpus: Corpus, today: string): Promise<QuotePages> {
  const { due } = selectQuoteTargets(corpus, { today, maxAgeDays: 0 });
  const pages = new Map<string, { type: string; body: Buffer }>();
  let index = 0;
  let pdfPages = 0;
  let quotes = 0;
  for (const [url, tasks] of due) {
    quotes += tasks.length;
    const text = tasks.map((task) => task.quote);
    const pdf = index % PDF_SHARE === 0 ? await pdfStating(text) : undefined;
    index += 1;
    if (pdf !== undefined) {
      pdfPages += 1;
      pages.set(new URL(url).href, { type: 'application/pdf', body: pdf });
    } else {
      const html = `<!doctype html><html><head><title>Home Repair Program</title></head><body><h1>Home Repair Program</h1>${text.map((quote) => `<p>${escape(quote)}</p>`).join('')}<p>Apply at the housing office.</p></body></html>`;
      pages.set(new URL(url).href, { type: 'text/html; charset=utf-8', body: Buffer.from(html) });
    }
  }
  return {
    quotes,
    htmlPages: pages.size - pdfPages,
    pdfPages,
    answer(request, response, target) {
      const page = pages.get(target.href);
      if (page === undefined) return false;
      response.writeHead(200, { 'content-type': page.type });
      response.end(request.method === 'HEAD' ? undefined : page.body);
      return true;
    },
  };
}

/** A one-page PDF whose text layer states each quote on its own wrapped lines; undefined when Helvetica cannot draw a character. */
async function pdfStating(quotes: readonly string[]): Promise<Buffer | undefined> {
  try {
    const document = await PDFDocument.create();
    const page = document.addPage([612, 792]);
    const font = await document.embedFont(StandardFonts.Helvetica);
    page.drawText(['Home Repair Program', ...quotes].join('\n'), { x: 72, y: 720, size: 10, font, maxWidth: 468, lineHeight: 14 });
    return Buffer.from(await document.save());
  } catch {
    return undefined;
  }
}
