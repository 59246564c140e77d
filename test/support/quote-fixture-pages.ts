/**
 * The pages of the quote-check tests, served by the link fixture proxy (its `answer` option) for the
 * made-up host `quotes.test`: one behaviour per path, each with the record and review that cite it and the
 * quote check the outcome table (corpus/README.md, "Quote checks") gives. PDFs are drawn here with pdf-lib,
 * never read from a file of unknown origin.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** The quote most pages state (a $10,000 ceiling, the records' maxAmount). */
export const QUOTE = 'Eligible homeowners may receive up to $10,000 for home repairs.';
/** The windows-1252 page's quote: an accented letter and a typographic apostrophe. */
export const QUOTE_1252 = 'The city’s Rénovation program pays up to $10,000 per home.';
export const QUOTE_HOST = 'quotes.test';

/** One fixture page and what checking the quote on it must record. */
export interface QuoteCase {
  path: string;
  quote: string;
  outcome: 'found' | 'not-found' | 'inconclusive';
  /** The `reason` of an inconclusive check, matched. */
  reason?: RegExp;
  /** The final URL's path after redirects, when not `path`. */
  finalPath?: string;
  /** `statedAmounts` of a not-found check. */
  statedAmounts?: Array<{ text: string; value: number }>;
  contentType: string | null;
}

const FILLER = '<p>The Housing Department repairs roofs, furnaces and porches for owner-occupants across the city. Applications are reviewed in the order they arrive.</p>';
const html = (body: string) => `<!doctype html><html><head><title>Home Repair Grant | City</title></head><body><h1>Home Repair Grant</h1>${body}${FILLER}</body></html>`;
const HTML = 'text/html; charset=utf-8';

/** Every case, in a fixed order (the programs citing them are quote-1, quote-2, ...). */
export const QUOTE_CASES: readonly QuoteCase[] = [
  { path: '/verbatim', quote: QUOTE, outcome: 'found', contentType: HTML },
  { path: '/inline-tags', quote: QUOTE, outcome: 'found', contentType: HTML },
  { path: '/entities', quote: QUOTE, outcome: 'found', contentType: HTML },
  { path: '/windows-1252', quote: QUOTE_1252, outcome: 'found', contentType: 'text/html; charset=windows-1252' },
  { path: '/flyer.pdf', quote: QUOTE, outcome: 'found', contentType: 'application/pdf' },
  { path: '/scan.pdf', quote: QUOTE, outcome: 'inconclusive', reason: /^pdf has no text layer$/, contentType: 'application/pdf' },
  { path: '/js-shell', quote: QUOTE, outcome: 'inconclusive', reason: /too short \(javascript shell\?\)/, contentType: HTML },
  { path: '/amount-changed', quote: QUOTE, outcome: 'not-found', statedAmounts: [{ text: '$12,500', value: 12500 }, { text: '$500', value: 500 }], contentType: HTML },
  { path: '/quote-gone', quote: QUOTE, outcome: 'not-found', statedAmounts: [], contentType: HTML },
  { path: '/moved', quote: QUOTE, outcome: 'found', finalPath: '/verbatim', contentType: HTML },
  { path: '/over-cap', quote: QUOTE, outcome: 'inconclusive', reason: /^html over 5 MiB cap$/, contentType: HTML },
  { path: '/never-finishes.pdf', quote: QUOTE, outcome: 'inconclusive', reason: /^no complete body within the \d+ ms deadline$/, contentType: 'application/pdf' },
];

async function pdf(lines: readonly string[]): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage([612, 792]);
  if (lines.length === 0) {
    // A scan: the page is a picture (here a grey block), with no text layer at all.
    page.drawRectangle({ x: 72, y: 300, width: 468, height: 400, opacity: 0.3 });
  } else {
    const font = await document.embedFont(StandardFonts.Helvetica);
    lines.forEach((line, index) => page.drawText(line, { x: 72, y: 700 - index * 18, size: 11, font }));
  }
  return Buffer.from(await document.save());
}

/** windows-1252 bytes of a text whose only non-ASCII characters are `é` and `’`. */
function windows1252(text: string): Buffer {
  return Buffer.from(Array.from(text, (char) => (char === 'é' ? 0xe9 : char === '’' ? 0x92 : char.charCodeAt(0))));
}

/** Builds the pages (the PDFs are generated) and returns the fixture's `answer` for them. */
export async function createQuotePages(): Promise<(request: IncomingMessage, response: ServerResponse, target: URL) => boolean> {
  const flyer = await pdf(['City Home Repair Program 2026', 'Eligible homeowners may receive up to $10,000', 'for home repairs. Apply at City Hall.']);
  const scan = await pdf([]);
  const pages: Record<string, { type: string; body: Buffer | string }> = {
    '/verbatim': { type: HTML, body: html(`<p>${QUOTE}</p>`) },
    '/inline-tags': { type: HTML, body: html('<p>Eligible homeowners may receive <em>up to</em> <b>$10,000</b> for <a href="/repairs">home repairs</a>.</p>') },
    '/entities': { type: HTML, body: html('<p>Eligible&nbsp;homeowners may receive up&#160;to &#36;10,000 for home\u00a0repairs&#46;</p>') },
    '/windows-1252': { type: 'text/html; charset=windows-1252', body: windows1252(html(`<p>${QUOTE_1252}</p>`)) },
    '/flyer.pdf': { type: 'application/pdf', body: flyer },
    '/scan.pdf': { type: 'application/pdf', body: scan },
    '/js-shell': { type: HTML, body: '<!doctype html><html><head><title>Home Repair Grant</title></head><body><div id="app"></div><script src="/bundle.js"></script></body></html>' },
    '/amount-changed': { type: HTML, body: html('<p>Eligible homeowners may receive up to $12,500 for home repairs. An inspection fee of $500 applies.</p>') },
    '/quote-gone': { type: HTML, body: html('<p>This program is accepting a waiting list only. Call the Housing Department for details.</p>') },
    '/over-cap': { type: HTML, body: html(`<p>${QUOTE}</p><!-- ${'x'.repeat(5 * 1024 * 1024)} -->`) },
  };
  return (request, response, target) => {
    if (target.host !== QUOTE_HOST) return false;
    const head = request.method === 'HEAD';
    if (target.pathname === '/moved') {
      response.writeHead(301, { location: '/verbatim' });
      response.end();
      return true;
    }
    if (target.pathname === '/never-finishes.pdf') {
      // The headers and the first bytes, then nothing: the body never ends.
      response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(flyer.length) });
      if (!head) response.write(flyer.subarray(0, 64));
      return true;
    }
    const page = pages[target.pathname];
    if (page === undefined) return false;
    response.writeHead(200, { 'content-type': page.type });
    response.end(head ? undefined : page.body);
    return true;
  };
}
