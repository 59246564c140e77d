/**
 * extractPageText on bodies whose declared type or charset is wrong (issue 31 item 11): a PDF served as
 * text/html or text/plain is read as a PDF, and a page in the `replacement` encoding is inconclusive.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractPageText, HTML_CAP_BYTES, type FetchedPage } from '../../../build/quotes/extract-page-text.ts';
import { quoteOccursIn } from '../../../build/quotes/quote-occurs-in.ts';
import { makeTestPdf } from '../../support/make-test-pdf.ts';

const QUOTE = 'Homeowners can receive grants of up to $10,000 for roof repairs.';
const page = (body: string | Uint8Array, contentType: string | null, complete = true): FetchedPage => ({
  body: typeof body === 'string' ? new TextEncoder().encode(body) : body, contentType, complete,
});

describe('extractPageText: a PDF served as text', () => {

  for (const contentType of ['text/html', 'text/html; charset=utf-8', 'text/plain']) {
    it(`a PDF served as ${contentType} is read as a PDF`, async () => {
      const pdf = await makeTestPdf({ kind: 'text', pages: [['Roof Repair Grant'], [QUOTE]] });
      const result = await extractPageText(page(pdf, contentType));
      assert.equal(result.format, 'pdf', JSON.stringify(result).slice(0, 300));
      assert.ok(result.kind === 'text' && quoteOccursIn(QUOTE, result.text));
    });
  }

  it('a newline before the signature (a script that printed one) still reads as a PDF', async () => {
    const pdf = await makeTestPdf({ kind: 'text', pages: [[QUOTE]] });
    const result = await extractPageText(page(Uint8Array.from([0x0a, 0x0d, 0x0a, ...pdf]), 'text/html'));
    assert.equal(result.format, 'pdf');
  });

  it('an HTML page that quotes %PDF- later is still HTML', async () => {
    const result = await extractPageText(page(`<p>Files start with %PDF-1.7. ${QUOTE}</p>`, 'text/html'));
    assert.equal(result.format, 'html');
  });

  it('a PDF served as text/html and cut at the HTML cap names the cap it was read to', async () => {
    const body = new Uint8Array(HTML_CAP_BYTES + 1).fill(0x20);
    body.set(new TextEncoder().encode('%PDF-1.7\n'));
    assert.deepEqual(await extractPageText(page(body, 'text/html', false)), { kind: 'inconclusive', format: 'pdf', reason: 'pdf over 5 MiB cap' });
  });
});

describe('extractPageText: the replacement encoding', () => {
  // ISO-2022-KR bytes: the designator, then shift-out, Hangul as 7-bit pairs, shift-in. A browser shows one U+FFFD.
  const iso2022kr = (ascii: string) => Uint8Array.from([0x1b, 0x24, 0x29, 0x43, ...new TextEncoder().encode(ascii), 0x0e, 0x30, 0x21, 0x0f]);
  const HTML = `<html><body><p>${QUOTE}</p><p>Apply at City Hall, Monday to Friday.</p></body></html>`;
  const rows: Array<[string, FetchedPage, string, 'html' | 'text']> = [
    ['charset iso-2022-kr in the Content-Type', page(iso2022kr(HTML), 'text/html; charset=iso-2022-kr'), 'html declared in charset iso-2022-kr, which the Encoding Standard decodes as replacement (no text)', 'html'],
    ['charset csiso2022kr in the Content-Type', page(iso2022kr(HTML), 'text/html; charset=csISO2022KR'), 'html declared in charset csISO2022KR, which the Encoding Standard decodes as replacement (no text)', 'html'],
    ['hz-gb-2312 in a <meta charset>', page(`<meta charset="hz-gb-2312">${HTML}`, 'text/html'), 'html declared in a <meta> charset, which the Encoding Standard decodes as replacement (no text)', 'html'],
    ['text/plain in iso-2022-cn', page(QUOTE, 'text/plain; charset=iso-2022-cn'), 'text declared in charset iso-2022-cn, which the Encoding Standard decodes as replacement (no text)', 'text'],
  ];
  for (const [what, fetched, reason, format] of rows) {
    it(`${what}: inconclusive`, async () => {
      assert.deepEqual(await extractPageText(fetched), { kind: 'inconclusive', format, reason });
    });
  }

  it('a UTF-8 byte order mark outranks a replacement charset, as in a browser', async () => {
    const result = await extractPageText(page(Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(HTML)]), 'text/html; charset=iso-2022-kr'));
    assert.ok(result.kind === 'text' && quoteOccursIn(QUOTE, result.text));
  });
});
