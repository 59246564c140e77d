import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capFor, extractPageText, HTML_CAP_BYTES, PDF_CAP_BYTES, type FetchedPage, type PageText } from '../../../build/quotes/extract-page-text.ts';
import { quoteOccursIn } from '../../../build/quotes/quote-occurs-in.ts';
import { helveticaWithToUnicode, makeOnePagePdf } from '../../support/make-raw-pdf.ts';
import { makeTestPdf } from '../../support/make-test-pdf.ts';

const QUOTE = 'Homeowners can receive grants of up to $10,000 for roof repairs.';
// Enough ordinary page text (nav, footer) that no page below reads as a JavaScript shell.
const CHROME = '<nav>Home | Programs | Contact the Department of Housing</nav>';
const FOOTER = '<footer>City Department of Housing, 100 Main Street. Office hours Monday to Friday, 8 a.m. to 5 p.m. Call 311 for help with applications and documents.</footer>';

function page(body: string | Uint8Array, contentType: string | null, complete = true): FetchedPage {
  return { body: typeof body === 'string' ? new TextEncoder().encode(body) : body, contentType, complete };
}

function html(inner: string, head = ''): string {
  return `<!doctype html><html><head><title>Roof Repair Grant</title>${head}</head><body>${CHROME}${inner}${FOOTER}</body></html>`;
}

function textOf(result: PageText): string {
  assert.equal(result.kind, 'text', JSON.stringify(result));
  return (result as { text: string }).text;
}

// windows-1252 bytes: 0xE9 is é, 0x92 is ’ (a C1 control in ISO-8859-1 proper, U+2019 under the WHATWG mapping).
function cp1252(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => (char === 'é' ? 0xe9 : char === '’' ? 0x92 : char.charCodeAt(0)));
}
const CAFE_QUOTE = 'The Café Program pays homeowners’ roof repairs up to $10,000.';
const CAFE_PAGE = cp1252(html('<p>The Café Program pays homeowners’ roof repairs up to $10,000.</p>'));

describe('extractPageText: HTML', () => {
  const rows: Array<{ what: string; page: FetchedPage; quote: string; found: boolean }> = [
    { what: 'the quote verbatim', page: page(html(`<p>${QUOTE}</p>`), 'text/html; charset=utf-8'), quote: QUOTE, found: true },
    {
      what: 'the quote split across inline tags',
      page: page(html('<p>Homeowners can <a href="/apply">receive <em>grants</em></a> of up to <b>$10</b><span>,000</span> for roof repairs.</p>'), 'text/html'),
      quote: QUOTE,
      found: true,
    },
    {
      what: 'entities and NBSP',
      page: page(html('<p>Homeowners&nbsp;can receive grants of up&#160;to &#36;10,000 for roof&#x20;repairs&period;</p>'), 'text/html'),
      quote: QUOTE,
      found: true,
    },
    {
      what: 'a line break and an indent inside the sentence',
      page: page(html('<p>Homeowners can receive grants\n      of up to $10,000<br>for roof repairs.</p>'), 'text/html'),
      quote: QUOTE,
      found: true,
    },
    { what: 'windows-1252 named by the Content-Type', page: page(CAFE_PAGE, 'text/html; charset=windows-1252'), quote: CAFE_QUOTE, found: true },
    { what: 'ISO-8859-1 named by the Content-Type (decoded as windows-1252)', page: page(CAFE_PAGE, 'text/html; charset=ISO-8859-1'), quote: CAFE_QUOTE, found: true },
    {
      what: 'windows-1252 named only by <meta charset>',
      page: page(cp1252(html('<p>The Café Program pays homeowners’ roof repairs up to $10,000.</p>', '<meta charset="windows-1252">')), 'text/html'),
      quote: CAFE_QUOTE,
      found: true,
    },
    {
      what: 'ISO-8859-1 named only by <meta http-equiv>',
      page: page(cp1252(html('<p>The Café Program pays homeowners’ roof repairs up to $10,000.</p>', '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">')), null),
      quote: CAFE_QUOTE,
      found: true,
    },
    { what: 'no charset anywhere: windows-1252, the default', page: page(CAFE_PAGE, 'text/html'), quote: CAFE_QUOTE, found: true },
    {
      what: 'no charset anywhere, but valid UTF-8 bytes: UTF-8',
      page: page(html('<p>The Café Program pays homeowners’ roof repairs up to $10,000.</p>'), 'text/html'),
      quote: CAFE_QUOTE,
      found: true,
    },
    {
      what: 'a UTF-8 BOM outranks a wrong Content-Type charset',
      page: page(Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(html('<p>The Café Program pays homeowners’ roof repairs up to $10,000.</p>'))]), 'text/html; charset=windows-1252'),
      quote: CAFE_QUOTE,
      found: true,
    },
    {
      what: 'a UTF-16LE BOM',
      page: page(Uint8Array.from([0xff, 0xfe, ...Buffer.from(html(`<p>${QUOTE}</p>`), 'utf16le')]), 'text/html'),
      quote: QUOTE,
      found: true,
    },
    {
      what: 'UTF-8 bytes read under a windows-1252 charset are mojibake, not the quote',
      page: page(html('<p>The Café Program pays homeowners’ roof repairs up to $10,000.</p>'), 'text/html; charset=windows-1252'),
      quote: CAFE_QUOTE,
      found: false,
    },
    {
      what: 'the quote only inside <script>, <style>, <template>, <noscript> and a hidden element',
      page: page(html(`<script>var q = "${QUOTE}";</script><style>/* ${QUOTE} */</style><template><p>${QUOTE}</p></template><noscript>${QUOTE}</noscript><div hidden>${QUOTE}</div><p>Nothing here.</p>`), 'text/html'),
      quote: QUOTE,
      found: false,
    },
    {
      what: 'the quote only in a <meta> description',
      page: page(html('<p>Nothing here.</p>', `<meta name="description" content="${QUOTE}">`), 'text/html'),
      quote: QUOTE,
      found: false,
    },
    {
      what: 'block elements break text: two table cells do not run together',
      page: page(html('<table><tr><td>up to $10</td><td>000 for roofs</td></tr></table>'), 'text/html'),
      quote: 'up to $10000 for roofs',
      found: false,
    },
    {
      what: 'block elements break text: two paragraphs',
      page: page(html('<p>grants of up to</p><p>$10,000</p>'), 'text/html'),
      quote: 'grants of up to$10,000',
      found: false,
    },
    { what: 'the amount changed ($10,000 to $12,500)', page: page(html(`<p>${QUOTE.replace('$10,000', '$12,500')}</p>`), 'text/html'), quote: QUOTE, found: false },
  ];
  for (const row of rows) {
    it(`${row.what}: ${row.found ? 'found' : 'not found'}`, async () => {
      const result = await extractPageText(row.page);
      assert.equal(result.format, 'html');
      assert.equal(quoteOccursIn(row.quote, textOf(result)), row.found, textOf(result));
    });
  }

  it('reads the title and puts blocks on lines of their own', async () => {
    const result = await extractPageText(page('<html><head><title>Roof &amp; Repair</title><script>x()</script></head><body><h1>Grants</h1><p>Up to <b>$10,000</b>&nbsp;each<br>Apply now</p><ul><li>One</li><li>Two</li></ul></body></html>', 'text/html'));
    assert.equal(result.kind, 'inconclusive', 'short and scripted: a shell');
    const plain = await extractPageText(page('<html><head><title>Roof &amp; Repair</title></head><body><h1>Grants</h1><p>Up to <b>$10,000</b>&nbsp;each<br>Apply now</p><ul><li>One</li><li>Two</li></ul></body></html>', 'text/html'));
    assert.deepEqual(plain, { kind: 'text', format: 'html', text: 'Roof & Repair\nGrants\nUp to $10,000\u00A0each\nApply now\nOne\nTwo' });
  });

  it('survives a page nested far deeper than the call stack', async () => {
    const deep = `${'<span>'.repeat(200_000)}${QUOTE}${'</span>'.repeat(200_000)}`;
    const result = await extractPageText(page(html(`<p>${deep}</p>`), 'text/html'));
    assert.ok(quoteOccursIn(QUOTE, textOf(result)));
  });
});

describe('extractPageText: what cannot settle a quote', () => {
  it('a JavaScript shell: scripts and under 200 characters of text', async () => {
    const shell = '<!doctype html><html><head><title>City Housing</title><script src="/app.js"></script></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>';
    assert.deepEqual(await extractPageText(page(shell, 'text/html')), { kind: 'inconclusive', format: 'html', reason: 'page text too short (javascript shell?)' });
  });

  it('a JavaScript shell whose script is a module', async () => {
    const shell = '<html><body><div id="app"></div><script type="module" src="/main.js"></script></body></html>';
    assert.deepEqual(await extractPageText(page(shell, 'text/html')), { kind: 'inconclusive', format: 'html', reason: 'page text too short (javascript shell?)' });
  });

  it('a short page whose only script is JSON-LD data is a page, not a shell', async () => {
    const short = '<html><head><script type="application/ld+json">{"@type":"GovernmentService"}</script></head><body><p>Roof grants up to $10,000. Call 311.</p></body></html>';
    assert.deepEqual(await extractPageText(page(short, 'text/html')), { kind: 'text', format: 'html', text: 'Roof grants up to $10,000. Call 311.' });
  });

  it('a short page without scripts is a page, not a shell', async () => {
    const result = await extractPageText(page('<p>Roof grants up to $10,000. Call 311.</p>', 'text/html'));
    assert.deepEqual(result, { kind: 'text', format: 'html', text: 'Roof grants up to $10,000. Call 311.' });
  });

  it('a scripted page with 200 characters of text is not a shell', async () => {
    const text = 'x'.repeat(199) + ' y';
    const result = await extractPageText(page(`<script>boot()</script><p>${text}</p>`, 'text/html'));
    assert.equal(result.kind, 'text');
  });

  it('an empty page', async () => {
    assert.deepEqual(await extractPageText(page('<html><body> \n </body></html>', 'text/html')), { kind: 'inconclusive', format: 'html', reason: 'page has no text' });
  });

  it('an HTML body the reader cut at the cap, or larger than it', async () => {
    const cut = await extractPageText(page(html(`<p>${QUOTE}</p>`), 'text/html', false));
    assert.deepEqual(cut, { kind: 'inconclusive', format: 'html', reason: 'html over 5 MiB cap' });
    const big = await extractPageText(page(new Uint8Array(HTML_CAP_BYTES + 1).fill(0x61), 'text/html'));
    assert.deepEqual(big, { kind: 'inconclusive', format: 'html', reason: 'html over 5 MiB cap' });
  });

  it('an HTML body exactly at the cap is read', async () => {
    const body = new Uint8Array(HTML_CAP_BYTES).fill(0x61);
    body.set(new TextEncoder().encode(`<p>${QUOTE}</p><p>`));
    assert.ok(quoteOccursIn(QUOTE, textOf(await extractPageText(page(body, 'text/html')))));
  });

  it('a PDF over its cap', async () => {
    const pdf = await makeTestPdf({ kind: 'text', pages: [[QUOTE]] });
    assert.deepEqual(await extractPageText(page(pdf, 'application/pdf', false)), { kind: 'inconclusive', format: 'pdf', reason: 'pdf over 20 MiB cap' });
  });

  const unsupported: Array<[string | null, Uint8Array, string]> = [
    ['application/zip', Uint8Array.from([0x50, 0x4b, 3, 4]), 'unsupported content type application/zip'],
    ['image/png; charset=binary', Uint8Array.from([0x89, 0x50]), 'unsupported content type image/png'],
    ['application/msword', new Uint8Array(8), 'unsupported content type application/msword'],
    [null, Uint8Array.from([1, 2, 3]), 'unsupported content type missing (neither pdf nor html by its bytes)'],
    ['application/octet-stream', Uint8Array.from([1, 2, 3]), 'unsupported content type application/octet-stream (neither pdf nor html by its bytes)'],
    ['not a type', Uint8Array.from([1, 2, 3]), 'unsupported content type unparseable (neither pdf nor html by its bytes)'],
  ];
  for (const [contentType, body, reason] of unsupported) {
    it(`content type ${String(contentType)}`, async () => {
      assert.deepEqual(await extractPageText(page(body, contentType)), { kind: 'inconclusive', format: 'other', reason });
    });
  }
});

describe('extractPageText: plain text and unknown types', () => {
  it('text/plain, its charset honoured', async () => {
    const result = await extractPageText(page(cp1252(CAFE_QUOTE), 'text/plain; charset=windows-1252'));
    assert.equal(result.format, 'text');
    assert.ok(quoteOccursIn(CAFE_QUOTE, textOf(result)));
  });

  it('text/plain without a charset is UTF-8', async () => {
    assert.deepEqual(await extractPageText(page(CAFE_QUOTE, 'text/plain')), { kind: 'text', format: 'text', text: CAFE_QUOTE });
  });

  it('HTML served as application/octet-stream or with no type is sniffed as HTML', async () => {
    for (const contentType of ['application/octet-stream', null]) {
      const result = await extractPageText(page(html(`<p>${QUOTE}</p>`), contentType));
      assert.equal(result.format, 'html');
      assert.ok(quoteOccursIn(QUOTE, textOf(result)));
    }
  });
});

describe('extractPageText: PDF', () => {

  it('the quote in the text layer, drawn over two lines', async () => {
    const pdf = await makeTestPdf({ kind: 'text', pages: [['Roof Repair Grant Program'], ['Homeowners can receive grants of up to', '$10,000 for roof repairs.']] });
    const result = await extractPageText(page(pdf, 'application/pdf'));
    assert.equal(result.format, 'pdf');
    assert.ok(quoteOccursIn(QUOTE, textOf(result)), textOf(result));
  });

  it('typographic apostrophes and accents in the text layer (WinAnsi)', async () => {
    const pdf = await makeTestPdf({ kind: 'text', pages: [[CAFE_QUOTE]] });
    assert.ok(quoteOccursIn("The Cafe\u0301 Program pays homeowners' roof repairs up to $10,000.", textOf(await extractPageText(page(pdf, 'application/pdf')))));
  });

  it('a PDF served as application/octet-stream is sniffed as a PDF', async () => {
    const pdf = await makeTestPdf({ kind: 'text', pages: [[QUOTE]] });
    const result = await extractPageText(page(pdf, 'application/octet-stream'));
    assert.equal(result.format, 'pdf');
    assert.ok(quoteOccursIn(QUOTE, textOf(result)));
  });

  it('a scan (pages drawn as images only) has no text layer', async () => {
    const pdf = await makeTestPdf({ kind: 'image-only' });
    assert.deepEqual(await extractPageText(page(pdf, 'application/pdf')), { kind: 'inconclusive', format: 'pdf', reason: 'pdf has no text layer' });
  });

  it('a text layer of broken ligatures (fi read as U+001C) is unreadable, the same layer mapped right is read', async () => {
    // Code 0x86 drawn where the page shows `fi`; a code under 0x20 would not do, as pdf.js reads those as spaces.
    const content = 'BT /F1 12 Tf 54 720 Td (The signi\\206er of each program certi\\206es the \\206nal grant: up to $10,000.) Tj ET';
    const broken = makeOnePagePdf(content, '/F1 5 0 R', helveticaWithToUnicode(['<86> <001C>']));
    const read = await extractPageText(page(broken, 'application/pdf'));
    // The text is kept, for a quote it does hold; the note makes a quote it lacks inconclusive (check-quotes.ts).
    assert.equal(read.kind === 'text' && read.unreadable, 'pdf text layer unreadable on 1 of 1 pages (broken font encoding)');
    assert.ok(quoteOccursIn('up to $10,000', textOf(read)));
    const mapped = makeOnePagePdf(content, '/F1 5 0 R', helveticaWithToUnicode(['<86> <00660069>']));
    assert.ok(quoteOccursIn('certifies the final grant: up to $10,000', textOf(await extractPageText(page(mapped, 'application/pdf')))));
  });

  it('a header whose font maps the space to # is unreadable, so a quote missing there is not settled (issue 40 item 8)', async () => {
    const content = 'BT /F1 12 Tf 54 720 Td (Home Repair Program Guidelines) Tj ET BT /F2 12 Tf 54 700 Td (Grants for roofs and porches.) Tj ET';
    const pdf = makeOnePagePdf(content, '/F1 5 0 R /F2 7 0 R', [...helveticaWithToUnicode(['<20> <0023>']), { body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>' }]);
    const read = await extractPageText(page(pdf, 'application/pdf'));
    assert.equal(read.kind === 'text' && read.unreadable, 'pdf text layer unreadable on 1 of 1 pages (broken font encoding)', JSON.stringify(read));
    assert.ok(quoteOccursIn('Grants for roofs', textOf(read)));
  });

  it('a damaged PDF', async () => {
    const result = await extractPageText(page('%PDF-1.7\nthis is not a PDF body', 'application/pdf'));
    assert.deepEqual(result, { kind: 'inconclusive', format: 'pdf', reason: 'pdf is damaged (invalid structure)' });
  });

  it('a truncated PDF (half its bytes)', async () => {
    const pdf = await makeTestPdf({ kind: 'text', pages: [[QUOTE]] });
    const result = await extractPageText(page(pdf.subarray(0, pdf.length >> 1), 'application/pdf'));
    assert.equal(result.kind === 'inconclusive' || !quoteOccursIn(QUOTE, result.text), true, JSON.stringify(result));
  });
});

describe('capFor', () => {
  const rows: Array<[string | null, number]> = [
    ['application/pdf', PDF_CAP_BYTES],
    ['Application/PDF; name=flyer.pdf', PDF_CAP_BYTES],
    ['application/octet-stream', PDF_CAP_BYTES],
    [null, PDF_CAP_BYTES],
    ['text/html; charset=utf-8', HTML_CAP_BYTES],
    ['text/plain', HTML_CAP_BYTES],
    ['image/jpeg', HTML_CAP_BYTES],
  ];
  for (const [contentType, cap] of rows) it(`${String(contentType)} -> ${cap}`, () => assert.equal(capFor(contentType), cap));
  it('the caps are 5 MiB and 20 MiB', () => {
    assert.equal(HTML_CAP_BYTES, 5 * 1024 * 1024);
    assert.equal(PDF_CAP_BYTES, 20 * 1024 * 1024);
  });
});
