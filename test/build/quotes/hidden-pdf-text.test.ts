/**
 * Text a PDF page draws where no one can see it (issue 40 item 7) is left out of the page's text, on PDFs
 * written operator by operator (make-raw-pdf.ts) and a pdf-lib form; text a reader does see stays.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  PDFArray, PDFDocument, PDFNumber, PDFOperator, PDFOperatorNames, StandardFonts, TextRenderingMode, beginText, endText, fill,
  popGraphicsState, pushGraphicsState, rectangle, rgb, setFillingRgbColor, setFontAndSize, setTextMatrix, setTextRenderingMode, type PDFPage,
} from 'pdf-lib';
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
    // The page is read again with its images (read-pdf-pages.ts), and the image is not under the text.
    ['invisible (render mode 3) beside an image, not over it', `q 100 0 0 100 50 50 cm /Im1 Do Q ${text('3 Tr')}`],
    ['in the page colour beside an image, not over it', `q 100 0 0 100 50 50 cm /Im1 Do Q ${text('1 g')}`],
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
    // The first reading leaves images out (read-pdf-pages.ts): only the reading with them can show these.
    ['white text over a photo painted before it', `q 400 0 0 60 40 680 cm /Im1 Do Q ${text('1 g')}`],
    ['white text over an inline image painted before it', `q 400 0 0 60 40 680 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x20\x20\x20\x20 EI Q ${text('1 g')}`],
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

  it('a page read again with its images is the same page: the pages before and after it keep their own verdicts', async () => {
    const page = (contents: number) => ({ body: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R >> /XObject << /Im1 8 0 R >> >> /Contents ${contents} 0 R >>` });
    const pdf = makeRawPdf([
      { body: '<< /Type /Catalog /Pages 2 0 R >>' },
      { body: '<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>' },
      page(6), page(9), page(10),
      // Page 1: white text over nothing, hidden; page 2: white text over a photo, read, and over nothing, hidden; page 3 as page 1.
      { body: '<< >>', stream: `BT /F1 12 Tf 54 700 Td 1 g (First page, hidden) Tj ET` },
      { body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>' },
      { body: '<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 >>', stream: '\x20\x20\x20\x20' },
      { body: '<< >>', stream: `q 400 0 0 60 40 680 cm /Im1 Do Q BT /F1 12 Tf 54 700 Td 1 g (Second page, over the photo) Tj ET BT /F1 12 Tf 54 500 Td 1 g (Second page, hidden) Tj ET` },
      { body: '<< >>', stream: `BT /F1 12 Tf 54 700 Td 1 g (Third page, hidden) Tj ET` },
    ]);
    const answer = await readPdfPages(pdf);
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.deepEqual(answer.pages.map((text) => text.trim()), ['', 'Second page, over the photo', '']);
  });

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

  describe('a hidden run pdf.js splits over several text items', () => {
    // The Federal Register's proof stamp, as its pages draw it: one white TJ whose pieces are a wide kern
    // apart (-1076.9), which pdf.js gives as one item per piece with a ' ' item between them.
    const PIECES = ['VerDate Sep<11>2014', '16:21 Aug 05, 2020', 'Jkt 250001', 'PO 00000'];
    const STAMP = PIECES.join(' ');
    const BESIDE = 'Apply at City Hall by Aug 05, 2020.';

    /** A page with SHOWN at the top and, on one baseline, the stamp drawn as `draw` hides it then BESIDE in black. */
    async function stampPdf(draw: (page: PDFPage, stamp: PDFOperator[]) => void, tail?: string): Promise<Uint8Array> {
      const doc = await PDFDocument.create();
      doc.setCreationDate(new Date(0));
      doc.setModificationDate(new Date(0));
      const font = await doc.embedFont(StandardFonts.Helvetica);
      const bold = await doc.embedFont(StandardFonts.HelveticaBold);
      const page = doc.addPage([612, 792]);
      page.drawText(SHOWN, { x: 54, y: 740, size: 12, font });
      const pieces = PDFArray.withContext(doc.context);
      PIECES.forEach((piece, index) => {
        if (index > 0) pieces.push(PDFNumber.of(-1076.9));
        pieces.push(font.encodeText(piece));
      });
      const stamp = [setFontAndSize(page.node.newFontDictionary('Stamp', font.ref), 6.5), setTextMatrix(1, 0, 0, 1, 25, 20), PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [pieces])];
      // A font change inside the hidden span: its last piece in bold, a word's width on.
      if (tail !== undefined) stamp.push(setFontAndSize(page.node.newFontDictionary('StampBold', bold.ref), 6.5), setTextMatrix(1, 0, 0, 1, 245, 20), PDFOperator.of(PDFOperatorNames.ShowText, [bold.encodeText(tail)]));
      // In a saved graphics state of its own, so that its colour or render mode ends with it.
      page.pushOperators(pushGraphicsState());
      draw(page, stamp);
      page.pushOperators(popGraphicsState());
      page.drawText(BESIDE, { x: 340, y: 20, size: 6.5, font, color: rgb(0, 0, 0) });
      return doc.save({ useObjectStreams: false });
    }

    const cases: Array<[string, (page: PDFPage, stamp: PDFOperator[]) => void, string?]> = [
      ['in the page colour, as the stamp is', (page, stamp) => page.pushOperators(beginText(), setFillingRgbColor(1, 1, 1), ...stamp, endText())],
      ['invisible (render mode 3) not over an image', (page, stamp) => page.pushOperators(beginText(), setTextRenderingMode(TextRenderingMode.Invisible), ...stamp, endText())],
      ['under a white rectangle drawn after it', (page, stamp) => page.pushOperators(beginText(), ...stamp, endText(), setFillingRgbColor(1, 1, 1), rectangle(20, 15, 300, 15), fill())],
      ['in the page colour, its last piece in another font', (page, stamp) => page.pushOperators(beginText(), setFillingRgbColor(1, 1, 1), ...stamp, endText()), 'E:\\FR\\FM\\06AUP1.SGM'],
    ];
    for (const [what, draw, tail] of cases) {
      it(`${what}: every piece is cut, the sentence beside it stays`, async () => {
        const pdf = await stampPdf(draw, tail);
        const page = await textOf(pdf);
        for (const piece of [...PIECES, ...(tail === undefined ? [] : [tail])]) assert.ok(!page.includes(piece), `${piece} left in: ${page}`);
        assert.equal(await found(pdf, STAMP), false, page);
        assert.ok(await found(pdf, BESIDE), page);
        assert.ok(await found(pdf, SHOWN), page);
      });
    }

    it('the same pieces drawn in black are read, each one', async () => {
      const pdf = await stampPdf((page, stamp) => page.pushOperators(beginText(), ...stamp, endText()));
      assert.ok(await found(pdf, STAMP), await textOf(pdf));
      assert.ok(await found(pdf, BESIDE));
    });
  });
});
