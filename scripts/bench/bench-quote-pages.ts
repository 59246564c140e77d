/**
 * The pages of the links benchmark: every URL that carries an amount quote answers a page stating it, HTML
 * for three in four and a PDF with the quote in its text layer for the fourth, and every other URL a program
 * page, so the run reads and parses pages the way a city's mix of program pages and flyers would have it.
 * Sizes and h1 offsets follow real documents (bench-page-shapes.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Corpus } from '../../build/corpus/corpus-types.ts';
import { selectQuoteTargets } from '../../build/links/select-quote-targets.ts';
import { pdfSizeFor, seededRandom, seedOf, syntheticHtml } from './bench-page-shapes.ts';

/** One in this many quote pages is a PDF. */
export const PDF_SHARE = 4;

/** What the pages are, for the report. */
export interface QuotePages {
  answer: (request: IncomingMessage, response: ServerResponse, target: URL) => boolean;
  quotes: number;
  htmlPages: number;
  pdfPages: number;
  /** Whether the page at `href` (a URL as the fixture sees it) is one of the PDFs. */
  isPdf(href: string): boolean;
}

/** What every URL without a quote answers: a live program page. */
const PROGRAM_PAGE = { title: 'Home Repair Grant | Agency', heading: 'Home Repair Grant' };

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Generates every quote page of `corpus` (URLs as the fixture sees them: `http://host/path`). */
export async function createBenchQuotePages(corpus: Corpus, today: string): Promise<QuotePages> {
  const { due } = selectQuoteTargets(corpus, { today, maxAgeDays: 0 });
  const pages = new Map<string, { type: string; body: Buffer | (() => Buffer) }>();
  let index = 0;
  let pdfPages = 0;
  let quotes = 0;
  for (const [url, tasks] of due) {
    quotes += tasks.length;
    const text = tasks.map((task) => task.quote);
    const pdf = index % PDF_SHARE === 0 ? await pdfStating(text, pdfSizeFor(new URL(url).href)) : undefined;
    index += 1;
    if (pdf !== undefined) {
      pdfPages += 1;
      pages.set(new URL(url).href, { type: 'application/pdf', body: pdf });
    } else {
      // Generated when asked for: held whole, the pages of the published scale would take gigabytes.
      const href = new URL(url).href;
      const paragraphs = [...text.map(escape), 'Apply at the housing office.'];
      pages.set(href, { type: 'text/html; charset=utf-8', body: () => syntheticHtml(href, { title: 'Home Repair Program', heading: 'Home Repair Program', paragraphs }) });
    }
  }
  return {
    quotes,
    htmlPages: pages.size - pdfPages,
    pdfPages,
    isPdf: (href) => pages.get(href)?.type === 'application/pdf',
    answer(request, response, target) {
      const page = pages.get(target.href) ?? { type: 'text/html; charset=utf-8', body: () => syntheticHtml(target.href, PROGRAM_PAGE) };
      const plain = typeof page.body === 'function' ? page.body() : page.body;
      // Compressed only when asked for, as servers do: the checker asks for identity.
      const gzip = page.type.startsWith('text/html') && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
      const body = gzip ? gzipSync(plain) : plain;
      response.writeHead(200, { 'content-type': page.type, 'content-length': String(body.byteLength), ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
      response.end(request.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}

/**
 * A one-page PDF whose text layer states each quote on its own wrapped lines, grown to about `size` bytes by
 * an unreferenced stream of seeded random bytes (as images and fonts, which text extraction skips, do not
 * compress); undefined when Helvetica cannot draw a character.
 */
export async function pdfStating(quotes: readonly string[], size: number): Promise<Buffer | undefined> {
  try {
    const document = await PDFDocument.create();
    const page = document.addPage([612, 792]);
    const font = await document.embedFont(StandardFonts.Helvetica);
    page.drawText(['Home Repair Program', ...quotes].join('\n'), { x: 72, y: 720, size: 10, font, maxWidth: 468, lineHeight: 14 });
    const bare = (await document.save()).byteLength;
    if (size > bare + 64) {
      const random = seededRandom(seedOf(quotes.join('\n')));
      const padding = Buffer.alloc(size - bare - 64);
      for (let i = 0; i + 4 <= padding.length; i += 4) padding.writeUInt32LE(Math.floor(random() * 2 ** 32), i);
      document.context.register(document.context.stream(padding));
    }
    return Buffer.from(await document.save());
  } catch {
    return undefined;
  }
}
