/**
 * The text a person reads on a fetched page, HTML, PDF or plain text, or why there is none to judge a quote
 * against (issue 22 item 2). The fetcher reads at most `capFor(contentType) + 1` bytes (decoded from any
 * Content-Encoding) and says whether it stopped early; everything after that is here.
 */
import { MIMEType } from 'node:util';
import { decodeHtml, decodePlainText } from './decode-html.ts';
import { htmlVisibleText } from './html-visible-text.ts';
import { normalizeForMatch } from './normalize-for-match.ts';
import { countUnreadablePages } from './unreadable-text-layer.ts';

/** A response body as the fetcher read it. */
export interface FetchedPage {
  /** The bytes read: at most the cap + 1 byte, so an over-cap body is detectable. */
  body: Uint8Array;
  /** The response's Content-Type header, raw. */
  contentType: string | null;
  /** False when the reader stopped at the cap (the body was larger). */
  complete: boolean;
}

/** The page's text, not yet normalized, or why the page cannot settle whether a quote is on it. */
export type PageText =
  /**
   * `unreadable`: why an absent quote proves nothing here (a PDF with pages whose text layer is broken); a
   * quote found in the text is found all the same. `ocrPages`: the PDF pages (0-based, in `text` joined by
   * `\n\f\n`) that are OCR layers over a scan, matched with the OCR tolerance.
   */
  | { kind: 'text'; format: 'html' | 'pdf' | 'text'; text: string; unreadable?: string; ocrPages?: number[] }
  /**
   * `limit: 'run-time'`: the extraction's own limits or its child process, not the page, left it unjudged, so
   * another run may judge it; a kind to test rather than a reason to match.
   */
  | { kind: 'inconclusive'; format: 'html' | 'pdf' | 'text' | 'other'; reason: string; limit?: 'run-time' };

/** 5 MiB: an HTML page larger than this is not a program page a person reads. */
export const HTML_CAP_BYTES = 5 * 1024 * 1024;
/** 20 MiB: city guideline PDFs with photos run to a few MiB; larger ones are scans or whole reports. */
export const PDF_CAP_BYTES = 20 * 1024 * 1024;

/**
 * A page with scripts whose visible text normalizes to fewer characters than this is taken for a
 * JavaScript-rendered shell: the program page a person sees is drawn by scripts this check does not run.
 */
export const SHELL_TEXT_CHARS = 200;

const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf', 'application/acrobat']);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
// Types servers send when they do not know better: the bytes decide (a PDF signature, or markup).
const UNKNOWN_TYPES = new Set(['application/octet-stream', 'binary/octet-stream', 'application/unknown']);

type Format = 'html' | 'pdf' | 'text';

function parseContentType(contentType: string | null): MIMEType | undefined {
  if (contentType === null) return undefined;
  try {
    return new MIMEType(contentType);
  } catch {
    return undefined;
  }
}

/** The format the Content-Type names; undefined when it names none, so the bytes are sniffed. */
function declaredFormat(mime: MIMEType | undefined): Format | 'other' | undefined {
  if (mime === undefined || UNKNOWN_TYPES.has(mime.essence)) return undefined;
  if (HTML_TYPES.has(mime.essence)) return 'html';
  if (PDF_TYPES.has(mime.essence)) return 'pdf';
  if (mime.essence === 'text/plain') return 'text';
  return 'other';
}

/** A PDF signature in the first 1024 bytes (PDF 32000-1, 7.5.2 allows leading bytes), or a tag at the start. */
function sniffFormat(body: Uint8Array): Format | undefined {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  if (/^(?:\uFEFF|\xEF\xBB\xBF)?\s*<(?:!doctype html|html|head|body|!--|p|div|title)\b/i.test(head)) return 'html';
  return undefined;
}

/** How many bytes to read for a response of this Content-Type: the PDF cap where a PDF may come, else the HTML cap. */
export function capFor(contentType: string | null): number {
  const mime = parseContentType(contentType);
  const format = declaredFormat(mime);
  return format === 'pdf' || format === undefined ? PDF_CAP_BYTES : HTML_CAP_BYTES;
}

function capOf(format: Format): number {
  return format === 'pdf' ? PDF_CAP_BYTES : HTML_CAP_BYTES;
}

function mebibytes(bytes: number): string {
  return `${bytes / (1024 * 1024)} MiB`;
}

/**
 * Extracts the text of `page`; a body that starts with `%PDF-` is read as a PDF whatever text type it was
 * served as. Inconclusive, with a short stable reason, when: the type is neither HTML, PDF nor plain text
 * (after sniffing an unknown one); the body is over its format's cap; the page is declared in an encoding
 * the Encoding Standard maps to `replacement` (decode-html.ts); a PDF has no text
 * layer, is damaged, encrypted, too slow or too large in memory; the text is empty; or an HTML page with
 * scripts shows fewer than SHELL_TEXT_CHARS normalized characters.
 */
export async function extractPageText(page: FetchedPage): Promise<PageText> {
  const mime = parseContentType(page.contentType);
  const declared = declaredFormat(mime);
  if (declared === 'other') return { kind: 'inconclusive', format: 'other', reason: `unsupported content type ${mime!.essence}` };
  // A PDF signature at the very start outranks a server that calls every download text/html.
  const format = (declared === 'html' || declared === 'text') && startsAsPdf(page.body) ? 'pdf' : declared ?? sniffFormat(page.body);
  if (format === undefined) {
    const named = mime?.essence ?? (page.contentType === null ? 'missing' : 'unparseable');
    return { kind: 'inconclusive', format: 'other', reason: `unsupported content type ${named} (neither pdf nor html by its bytes)` };
  }
  // The fetcher read no further than the declared type's cap (a PDF served as HTML: the HTML cap).
  const cap = Math.min(capOf(format), capFor(page.contentType));
  if (!page.complete || page.body.byteLength > cap) {
    return { kind: 'inconclusive', format, reason: `${format} over ${mebibytes(cap)} cap` };
  }
  const charset = mime?.params.get('charset') ?? undefined;
  if (format === 'pdf') return readPdf(page.body);
  const decoded = format === 'text' ? decodePlainText(page.body, charset) : decodeHtml(page.body, charset);
  if (decoded.kind === 'unreadable') return { kind: 'inconclusive', format, reason: decoded.reason };
  if (format === 'text') return settle('text', decoded.text, false);
  const { text, hasScript } = htmlVisibleText(decoded.text);
  return settle('html', text, hasScript);
}

/** `%PDF-` at the start of the body, after any ASCII white space (a script that printed a newline first). */
function startsAsPdf(body: Uint8Array): boolean {
  let start = 0;
  while (start < body.byteLength && start < 1024 && [0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(body[start]!)) start += 1;
  return Buffer.from(body.buffer, body.byteOffset + start, Math.min(5, body.byteLength - start)).toString('latin1') === '%PDF-';
}

/**
 * The normalized length of `text`, exact below `atLeast`, else some value at least `atLeast`. A page's
 * first 4096 characters usually settle it, which spares normalizing a whole long page for two thresholds.
 */
function visibleLength(text: string, atLeast: number): number {
  // The normalized prefix is at most one character longer than its share of the whole (a composition cut
  // at the boundary), hence the + 1.
  const prefix = normalizeForMatch(text.slice(0, 4096)).length;
  return prefix >= atLeast + 1 ? prefix : normalizeForMatch(text).length;
}

function settle(format: Format, text: string, hasScript: boolean): PageText {
  const visible = visibleLength(text, SHELL_TEXT_CHARS);
  // A scripted page with no text at all is a shell too: the scripts are the likelier reason it is empty.
  if (hasScript && visible < SHELL_TEXT_CHARS) return { kind: 'inconclusive', format, reason: 'page text too short (javascript shell?)' };
  if (visible === 0) return { kind: 'inconclusive', format, reason: 'page has no text' };
  return { kind: 'text', format, text };
}

/**
 * Reads the PDF on this thread: whoever extracts untrusted pages runs this whole function where a bomb can
 * only kill a child process (create-page-text-extractor.ts). pdf.js is loaded on the first PDF, so that
 * what only needs capFor (the fetcher) never loads it.
 */
async function readPdf(body: Uint8Array): Promise<PageText> {
  const { readPdfPages } = await import('./read-pdf-pages.ts');
  const answer = await readPdfPages(body);
  if (!answer.ok) return { kind: 'inconclusive', format: 'pdf', reason: answer.reason };
  const text = answer.pages.join('\n\f\n');
  // A scan: pages drawn as images, no text layer to search.
  if (visibleLength(text, 1) === 0) return { kind: 'inconclusive', format: 'pdf', reason: 'pdf has no text layer' };
  // Broken ToUnicode maps: a quote missing there says nothing about the printed page, one found there is found.
  const { withText, unreadable } = countUnreadablePages(answer.pages);
  const ocr = answer.ocrPages.length === 0 ? {} : { ocrPages: answer.ocrPages };
  if (unreadable === 0) return { kind: 'text', format: 'pdf', text, ...ocr };
  return { kind: 'text', format: 'pdf', text, unreadable: `pdf text layer unreadable on ${unreadable} of ${withText} pages (broken font encoding)`, ...ocr };
}
