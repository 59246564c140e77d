/** pdf.js's reading of generated PDFs, through to the quote matching that PDF text is read with. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { preparePageText } from '../../../build/quotes/prepare-page-text.ts';
import { quoteOccursIn } from '../../../build/quotes/quote-occurs-in.ts';
import { readPdfPages } from '../../../build/quotes/read-pdf-pages.ts';
import { helveticaWithToUnicode, makeOnePagePdf } from '../../support/make-raw-pdf.ts';
import { makeTestPdf } from '../../support/make-test-pdf.ts';

async function pagesOf(pdf: Uint8Array): Promise<string[]> {
  // A copy: pdf.js takes over the array's buffer.
  const answer = await readPdfPages(pdf.slice());
  assert.ok(answer.ok, JSON.stringify(answer));
  return answer.pages;
}

/** Whether `quote` is found in the PDF's text, read and matched as the weekly run does. */
async function foundIn(pdf: Uint8Array, quote: string): Promise<boolean> {
  return quoteOccursIn(quote, preparePageText((await pagesOf(pdf)).join('\n\f\n'), 'pdf'));
}

// A CID-keyed font of the Adobe-Japan1 collection, not embedded and without a ToUnicode map: its text is
// only readable through pdf.js's predefined CMaps (the character codes to CIDs, and the CIDs to Unicode).
// Objects 5-7; object 8 is Helvetica for a Latin line beside it.
function japan1Objects(encoding: string) {
  return [
    { body: `<< /Type /Font /Subtype /Type0 /BaseFont /KozMinPr6N-Regular /Encoding /${encoding} /DescendantFonts [6 0 R] >>` },
    { body: '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /KozMinPr6N-Regular /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> /FontDescriptor 7 0 R /DW 1000 >>' },
    { body: '<< /Type /FontDescriptor /FontName /KozMinPr6N-Regular /Flags 4 /FontBBox [0 -120 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>' },
    { body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>' },
  ];
}

describe('readPdfPages', () => {
  it('reads Japanese in a CID font with a predefined CMap (UniJIS-UCS2-H) beside a Latin line', async () => {
    // 日本語の住宅 in UCS-2 codes, then a Helvetica line from the page's second font.
    const content = 'BT /F1 12 Tf 54 720 Td <65E5672C8A9E306E4F4F5B85> Tj ET BT /F2 12 Tf 54 700 Td (Repairs up to $5,000) Tj ET';
    const pdf = makeOnePagePdf(content, '/F1 5 0 R /F2 8 0 R', japan1Objects('UniJIS-UCS2-H'));
    assert.deepEqual(await pagesOf(pdf), ['日本語の住宅\nRepairs up to $5,000']);
  });

  it('reads a Latin line drawn in a CID-0 font through Identity-H (CIDs of Adobe-Japan1)', async () => {
    // In Adobe-Japan1, CIDs 1-95 are U+0020-U+007E.
    const codes = [...'Up to $5,000'].map((char) => (char.charCodeAt(0) - 0x1f).toString(16).padStart(4, '0')).join('');
    const pdf = makeOnePagePdf(`BT /F1 12 Tf 54 720 Td <${codes}> Tj ET`, '/F1 5 0 R', japan1Objects('Identity-H'));
    assert.deepEqual(await pagesOf(pdf), ['Up to $5,000']);
  });

  it('drops a soft hyphen mapped to U+00AD at a line end, and the joined word is still found', async () => {
    const content = 'BT /F1 12 Tf 54 720 Td (Repairs in\\255) Tj 0 -16 Td (cluding roofs up to $5,000) Tj ET';
    const pdf = makeOnePagePdf(content, '/F1 5 0 R', helveticaWithToUnicode(['<AD> <00AD>']));
    assert.deepEqual(await pagesOf(pdf), ['Repairs in\ncluding roofs up to $5,000']);
    assert.ok(await foundIn(pdf, 'Repairs including roofs up to $5,000'));
    assert.ok(await foundIn(pdf, 'Repairs in cluding roofs'));
    assert.equal(await foundIn(pdf, 'Repairs including roofs up to $2,500'), false);
  });

  it('finds a quote across a line-end hyphen in the word or the compound form, never a changed amount', async () => {
    const pdf = await makeTestPdf({ kind: 'text', pages: [['The program offers a zero-', 'percent interest rate for com-', 'pleted repairs of $2,', '000 in the 2026-', '2027 year.']] });
    assert.ok(await foundIn(pdf, 'a zero-percent interest rate'));
    assert.ok(await foundIn(pdf, 'for completed repairs'));
    assert.ok(await foundIn(pdf, 'for com-pleted repairs'));
    assert.ok(await foundIn(pdf, 'in the 2026-2027 year'));
    assert.equal(await foundIn(pdf, 'repairs of $2,500'), false);
    assert.equal(await foundIn(pdf, 'repairs of $2,000'), false);
  });

  it('keeps a raised ordinal on its number and sets a raised footnote digit apart from an amount', async () => {
    const pdf = await makeTestPdf({
      kind: 'runs',
      runs: [
        // Raised 4.5 points in 7-point type: more than half its own size, less than half the line's 12.
        { text: 'There is a $5.00 late fee if the payment is after the 5', x: 54, y: 720, size: 12 },
        { text: 'th', y: 724.5, size: 7 },
        { text: '.', y: 720, size: 12 },
        { text: 'Grants of up to $25,000', x: 54, y: 700, size: 12 },
        { text: '1', y: 704.5, size: 7 },
        { text: ' in repairs.', y: 700, size: 12 },
      ],
    });
    const [text] = await pagesOf(pdf);
    assert.match(text!, /after the 5th\./);
    assert.match(text!, /\$25,000 1 in repairs/);
    assert.ok(await foundIn(pdf, 'a $5 late fee if the payment is after the 5th.'));
    assert.ok(await foundIn(pdf, 'Grants of up to $25,000'));
    assert.equal(await foundIn(pdf, 'Grants of up to $25,0001'), false);
  });
});
