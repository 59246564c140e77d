/**
 * Text a PDF page draws where no one can see it (issue 40 item 7) is left out of the page's text, on PDFs
 * written operator by operator (make-raw-pdf.ts) and a pdf-lib form; text a reader does see stays.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { preparePageText } from '../../../build/quotes/prepare-page-text.ts';
import { quoteOccursIn } from '../../../build/quotes/quote-occurs-in.ts';
import { readPdfPages } from '../../../build/quotes/read-pdf-pages.ts';
import { makeRawPdf } from '../../support/make-raw-pdf.ts';

const OLD = 'Grants of up to $7,500 per home';
const SHOWN = 'Apply at City Hall by March 1.';

/** A one-page PDF: Helvetica as /F1, a 2 x 2 grey image as /Im1, a 0.4 fill opacity as /GS1, and the content stream `content`. */
function pagePdf(content: string): Uint8Array {
  return makeRawPdf([
    { body: '<< /Type /Catalog /Pages 2 0 R >>' },
    { body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> /ExtGState << /GS1 7 0 R >> >> /Contents 4 0 R >>' },
    { body: '<< >>', stream: `BT /F1 12 Tf 54 740 Td (${SHOWN}) Tj ET\n${content}` },
    { body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>' },
    { body: '<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 >>', stream: '\x80\x80\x80\x80' },
    { body: '<< /Type /ExtGState /ca 0.4 >>' },
  ]);
}

async function textOf(pdf: Uint8Array): Promise<string> {
  const answer = await readPdfPages(pdf.slice());
  assert.ok(answer.ok, JSON.stringify(answer));
  return answer.pages.join('\n\f\n');
}

async function found(pdf: Uint8Array, quote: string): Promise<boolean> {
  return quoteOccursIn(quote, preparePageText(await textOf(pdf), 'pdf'));
}

const text = (operators = '') => `BT /F1 12 Tf ${operators} 54 700 Td (${OLD}) Tj ET`;

describe('hidden PDF text', () => {
  const hidden: Array<[string, string]> = [
    ['under a white rectangle drawn after it', `${text()} 1 g 50 690 300 30 re f`],
    ['under a grey box drawn after it', `${text()} 0.5 g 50 690 300 30 re f`],
    ['in the page colour (white fill) over nothing', text('1 g')],
    ['in the page colour as RGB', text('1 1 1 rg')],
    ['invisible (render mode 3) not over an image', text('3 Tr')],
    ['clipped away', `q 300 300 10 10 re W n ${text()} Q`],
    ['drawn off the page', `BT /F1 12 Tf 54 900 Td (${OLD}) Tj ET`],
    ['white text run beside visible text on one line', `BT /F1 12 Tf 54 700 Td (Repairs: ) Tj 1 g (${OLD}) Tj ET`],
  ];
  for (const [what, content] of hidden) {
    it(`${what}: left out`, async () => {
      const pdf = pagePdf(content);
      assert.equal(await found(pdf, OLD), false, await textOf(pdf));
      assert.ok(await found(pdf, SHOWN));
    });
  }

  const shown: Array<[string, string]> = [
    ['black text', text()],
    ['white text on a dark banner painted before it', `0.1 0.2 0.5 rg 40 690 400 30 re f ${text('1 g')}`],
    ['an invisible OCR layer over a scanned image', `q 612 0 0 792 0 0 cm /Im1 Do Q ${text('3 Tr')}`],
    ['a rectangle drawn before the text (a cell background)', `0.9 g 50 690 300 30 re f 0 g ${text()}`],
    ['a half-transparent highlight drawn after it', `/GS1 gs ${text()} 1 1 0 rg 50 690 300 30 re f`],
    ['a box covering only part of the line', `${text()} 1 g 400 690 100 30 re f`],
    ['text inside the clip', `q 40 680 400 40 re W n ${text()} Q`],
  ];
  for (const [what, content] of shown) {
    it(`${what}: read`, async () => {
      assert.ok(await found(pagePdf(content), OLD), await textOf(pagePdf(content)));
    });
  }

  it('text under an opaque form field\'s widget is left out; the page around it is read', async () => {
    const doc = await PDFDocument.create();
    doc.setCreationDate(new Date(0));
    doc.setModificationDate(new Date(0));
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    page.drawText(SHOWN, { x: 54, y: 740, size: 12, font });
    page.drawText(OLD, { x: 54, y: 700, size: 12, font });
    const field = doc.getForm().createTextField('agency');
    field.addToPage(page, { x: 50, y: 690, width: 300, height: 28, backgroundColor: rgb(1, 1, 1), borderWidth: 0 });
    const pdf = await doc.save({ useObjectStreams: false });
    assert.equal(await found(pdf, OLD), false, await textOf(pdf));
    assert.ok(await found(pdf, SHOWN));
  });
});
