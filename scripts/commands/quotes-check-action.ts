/**
 * The `hra quotes check` action: reads the saved page as the fetcher reads a body (or an archived response's
 * payload as the run read it), judges it, prints a line per quote.
 */
import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { MIMEType } from 'node:util';
import { findWarcRecord, WarcRecordError } from '../../build/archive/find-warc-record.ts';
import { readArchivedPage } from '../../build/archive/read-archived-page.ts';
import { createPageTextExtractor } from '../../build/quotes/create-page-text-extractor.ts';
import { capFor, type FetchedPage, type PageText } from '../../build/quotes/extract-page-text.ts';
import { judgePageText } from '../../build/quotes/judge-page-text.ts';
import { locateQuoteBreak, type QuoteBreak } from '../../build/quotes/locate-quote-break.ts';
import { normalizeForMatch } from '../../build/quotes/normalize-for-match.ts';
import { CliFailure, printJson, progress } from '../cli-failure.ts';

/** The flags as commander hands them over. */
export interface QuotesCheckFlags {
  page?: string;
  warc?: string;
  record?: string;
  contentType?: string;
  quote: string[];
  json?: boolean;
}

/** One quote's result, as `--json` prints it (corpus/README.md, "Quote checks": the evidence line's fields). */
interface QuoteCheckLine {
  quote: string;
  outcome: 'found' | 'not-found' | 'inconclusive';
  reason?: string;
  textLength?: number;
  textSha256?: string;
  brokeOffAt?: QuoteBreak;
}

const READ_CHUNK_BYTES = 1024 * 1024;

/** Runs `hra quotes check`; a bad flag or an unreadable page is a CliFailure before anything is printed on stdout. */
export async function runQuotesCheck(flags: QuotesCheckFlags): Promise<void> {
  const contentType = flags.contentType === undefined ? null : mediaType(flags.contentType);
  for (const quote of flags.quote) {
    if (normalizeForMatch(quote) === '') throw new CliFailure(`--quote ${JSON.stringify(quote)}: normalizes to nothing, so it can never be found`);
  }
  const source = await readSource(flags, contentType);
  let text: PageText;
  if ('unjudged' in source) {
    text = { kind: 'inconclusive', format: 'other', reason: source.unjudged };
  } else {
    // Read in a child process with the weekly run's limits, so a hostile saved page can only end that child.
    const extractor = createPageTextExtractor({ children: 1 });
    try {
      text = await extractor.extract(source.page);
    } finally {
      await extractor.close();
    }
  }
  let lines: QuoteCheckLine[];
  if (text.kind === 'inconclusive') {
    const reason = text.reason;
    lines = flags.quote.map((quote) => ({ quote, outcome: 'inconclusive', reason }));
  } else {
    // Judged by the same code as in the weekly run's children (judge-page-text.ts).
    const judgment = judgePageText(text, flags.quote);
    const measures = { textLength: judgment.textLength, textSha256: judgment.textSha256 };
    const sniffed = 'page' in source && source.page.contentType === null ? ', the type sniffed from its bytes' : '';
    progress(`quotes: ${source.name}: ${text.format}${sniffed}, ${measures.textLength} characters of text`);
    let normalizedPage: string | undefined;
    lines = flags.quote.map((quote, index): QuoteCheckLine => {
      if (judgment.found[index] === true) return { quote, outcome: 'found', ...measures };
      const reason = judgment.unreadable ?? judgment.inconclusive?.[index] ?? undefined;
      if (reason !== undefined) return { quote, outcome: 'inconclusive', reason };
      normalizedPage ??= normalizeForMatch(text.text);
      return { quote, outcome: 'not-found', ...measures, brokeOffAt: locateQuoteBreak(normalizeForMatch(quote), normalizedPage) };
    });
  }
  for (const line of lines) {
    if (flags.json) printJson(line);
    else process.stdout.write(line.outcome === 'inconclusive' ? `inconclusive: ${line.reason}\n` : `${line.outcome}\n`);
  }
}

/**
 * The page to judge: `--page`'s file, or `--warc`'s record as the run read its payload (its Content-Type
 * from the archived headers unless `--content-type` is given); `unjudged` says why an archived response
 * holds no page the run would have judged.
 */
async function readSource(flags: QuotesCheckFlags, contentType: string | null): Promise<{ name: string; page: FetchedPage } | { name: string; unjudged: string }> {
  if ((flags.page === undefined) === (flags.warc === undefined)) throw new CliFailure('give either --page <file> or --warc <file> --record <id>');
  if (flags.page !== undefined) {
    if (flags.record !== undefined) throw new CliFailure('--record names a record of --warc, not of --page');
    return { name: flags.page, page: readPage(flags.page, contentType) };
  }
  const warc = flags.warc!;
  if (flags.record === undefined) throw new CliFailure(`--warc ${warc}: give the record to judge with --record <id>`);
  let response;
  try {
    response = await findWarcRecord(warc, flags.record);
  } catch (error) {
    if (error instanceof WarcRecordError) throw new CliFailure(error.message);
    throw error;
  }
  const name = `${warc} ${flags.record}`;
  // Only a 2xx body is a page the weekly run judges (check-quotes.ts).
  if (response.status < 200 || response.status > 299) return { name, unjudged: `the archived response has status ${response.status}, not a page` };
  const served = response.headers['content-type'];
  const type = contentType ?? (Array.isArray(served) ? served[0] : served) ?? null;
  const body = await readArchivedPage(response, type);
  if (body.kind === 'broken') return { name, unjudged: body.reason };
  return { name, page: { body: body.bytes, contentType: type, complete: body.complete } };
}

/** The type as given, once it parses as a media type (a header value such as `text/html; charset=utf-8`). */
function mediaType(text: string): string {
  try {
    new MIMEType(text);
  } catch {
    throw new CliFailure(`--content-type ${JSON.stringify(text)}: not a media type such as text/html or application/pdf (leave it out to sniff the type from the bytes)`);
  }
  return text;
}

/** The page as the fetcher hands a body over: at most the type's cap + 1 bytes, `complete` false past the cap. */
function readPage(path: string, contentType: string | null): FetchedPage {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new CliFailure(`--page ${path}: page file not found`);
    throw unreadable(path, error);
  }
  if (stats.isDirectory()) throw new CliFailure(`--page ${path}: is a directory, not a page file`);
  // A FIFO would block the open forever and a device may never end: only a saved file is a page.
  if (!stats.isFile()) throw new CliFailure(`--page ${path}: not a regular file`);
  const cap = capFor(contentType);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw unreadable(path, error);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    while (total <= cap) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, cap + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
    }
  } catch (error) {
    throw unreadable(path, error);
  } finally {
    closeSync(fd);
  }
  return { body: new Uint8Array(Buffer.concat(chunks, total)), contentType, complete: total <= cap };
}

function unreadable(path: string, error: unknown): CliFailure {
  return new CliFailure(`--page ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
}
