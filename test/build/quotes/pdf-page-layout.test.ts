/**
 * Pages laid out as real handouts and instructions are (issue 40): generated PDFs read by pdf.js and matched
 * as the weekly run does, so each case holds the whole path from the drawn page to `found`.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { preparePageText } from '../../../build/quotes/prepare-page-text.ts';
import { quoteOccursIn } from '../../../build/quotes/quote-occurs-in.ts';
import { readPdfPages } from '../../../build/quotes/read-pdf-pages.ts';
import { makeTestPdf, type TestPdfRun } from '../../support/make-test-pdf.ts';

async function textOf(pdf: Uint8Array): Promise<string> {
  const answer = await readPdfPages(pdf.slice());
  assert.ok(answer.ok, JSON.stringify(answer));
  return answer.pages.join('\n\f\n');
}

async function foundIn(pdf: Uint8Array, quote: string): Promise<boolean> {
  return quoteOccursIn(quote, preparePageText(await textOf(pdf), 'pdf'));
}

/** Columns of lines drawn row by row across the page (as many layout programs write them), 10-point, 14 apart. */
function rowByRow(columns: readonly string[][], options: { left?: number; pitch?: number; top?: number } = {}): TestPdfRun[] {
  const runs: TestPdfRun[] = [];
  const rows = Math.max(...columns.map((column) => column.length));
  for (let row = 0; row < rows; row++) {
    columns.forEach((column, index) => {
      const text = column[row];
      if (text !== undefined) runs.push({ text, x: (options.left ?? 54) + index * (options.pitch ?? 180), y: (options.top ?? 700) - row * 14, size: 10 });
    });
  }
  return runs;
}

const THREE_COLUMNS = [
  ['The credit for energy repairs', 'lets a household deduct up to an', 'additional $3,000 for a roof or', 'furnace replaced in the year.'],
  ['The rate for tax years after', '2007 is increased to 6%. The', 'rate applies to every return', 'filed by a homeowner in full.'],
  ['Apply at City Hall before the', 'end of March each year with', 'proof of income and a deed', 'or a mortgage statement.'],
];

describe('PDF page layout', () => {
  it('reads a three-column page drawn row by row column by column, under a heading', async () => {
    const pdf = await makeTestPdf({ kind: 'runs', runs: [{ text: 'Home Repair Tax Notice 2026', x: 54, y: 730, size: 16 }, ...rowByRow(THREE_COLUMNS)] });
    assert.ok(await foundIn(pdf, 'deduct up to an additional $3,000 for a roof'));
    assert.ok(await foundIn(pdf, 'after 2007 is increased to 6%.'));
    assert.ok(await foundIn(pdf, 'with proof of income and a deed'));
    assert.ok(await foundIn(pdf, 'Home Repair Tax Notice 2026'));
    assert.equal(await foundIn(pdf, 'deduct up to an 2007 is increased to 6%.'), false);
    assert.equal(await foundIn(pdf, 'deduct up to an additional $2,000'), false);
  });

  it('reads a sentence on from the foot of a column into the next, past the footnote that ends the column', async () => {
    // Drawn column by column, as the page is read, but the first column ends in its footnote.
    const first = ['Households below 80% of the area¹', 'median income may receive grants', 'for roofs, furnaces and porches', 'of up to $7,500 per home, and the'];
    const second = ['city adds a further $2,500 for lead', 'paint removal in homes built before', '1978 when a child lives there and the', 'owner signs a five-year agreement.'];
    const runs: TestPdfRun[] = [
      ...first.map((text, row) => ({ text, x: 54, y: 700 - row * 14, size: 10 })),
      { text: '1 Area median income as the department', x: 54, y: 620, size: 7 },
      { text: 'publishes it for the fiscal year 2026.', x: 54, y: 611, size: 7 },
      ...second.map((text, row) => ({ text, x: 314, y: 700 - row * 14, size: 10 })),
    ];
    const pdf = await makeTestPdf({ kind: 'runs', runs });
    assert.ok(await foundIn(pdf, 'of up to $7,500 per home, and the city adds a further $2,500 for lead paint removal'));
    assert.ok(await foundIn(pdf, 'Area median income as the department publishes it'));
  });

  it('keeps a single-column page, a table and a form in the order the page draws them', async () => {
    const pdf = await makeTestPdf({ kind: 'runs', runs: [
      { text: 'Household size', x: 54, y: 700, size: 10 }, { text: 'Income limit', x: 300, y: 700, size: 10 },
      { text: '1 person', x: 54, y: 686, size: 10 }, { text: '$45,100', x: 300, y: 686, size: 10 },
      { text: '2 persons', x: 54, y: 672, size: 10 }, { text: '$51,550', x: 300, y: 672, size: 10 },
      { text: '3 persons', x: 54, y: 658, size: 10 }, { text: '$58,000', x: 300, y: 658, size: 10 },
    ] });
    assert.ok(await foundIn(pdf, '2 persons $51,550'));
  });

  it('reads 48½, 48 1/2 and a raised 1, a slash and a lowered 2 as one amount, never as 481/2 or $48.12', async () => {
    const drawn = [
      await makeTestPdf({ kind: 'runs', runs: [{ text: 'The fee is 48½ cents per square foot.', x: 54, y: 700, size: 10 }] }),
      await makeTestPdf({ kind: 'runs', runs: [{ text: 'The fee is 48 1/2 cents per square foot.', x: 54, y: 700, size: 10 }] }),
      await makeTestPdf({ kind: 'runs', runs: [
        { text: 'The fee is 48', x: 54, y: 700, size: 10 }, { text: '1', y: 703.5, size: 6 }, { text: '/', y: 700, size: 10 },
        { text: '2', y: 698, size: 6 }, { text: ' cents per square foot.', y: 700, size: 10 },
      ] }),
    ];
    for (const pdf of drawn) {
      for (const quote of ['The fee is 48½ cents', 'The fee is 48 1/2 cents', 'the fee is 48 ¹⁄₂ cents']) assert.ok(await foundIn(pdf, quote), quote);
      for (const quote of ['The fee is 481/2 cents', 'The fee is $48.12', 'The fee is 48 cents']) assert.equal(await foundIn(pdf, quote), false, quote);
    }
  });

  // A regression guard through pdf.js (the join's own rule is tested in join-pdf-text-items.test.ts): a raised
  // initial on the first line's baseline is merged by pdf.js into one item (`T he ...`), which this does not reach.
  it('reads a drop cap set on the third line\'s baseline with the word it begins', async () => {
    const lines = (x: number) => [
      { text: 'he federal government pays for roofs', x, y: 700, size: 10 },
      { text: 'and furnaces in homes of the city up', x, y: 686, size: 10 },
      { text: 'to $5,000 a year.', x, y: 672, size: 10 },
    ];
    for (const runs of [[{ text: 'T', x: 54, y: 672, size: 36 }, ...lines(78)]]) {
      const pdf = await makeTestPdf({ kind: 'runs', runs });
      assert.ok(await foundIn(pdf, 'The federal government pays for roofs'), await textOf(pdf));
      assert.equal(await foundIn(pdf, 'The federal government pays for roofs and furnaces in homes of the city up to $2,000'), false);
    }
  });
});

describe('PDF form fields', () => {
  it('reads the values typed into a filled form, in place beside their labels, and not an old value the widget covers', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    doc.setCreationDate(new Date(0));
    doc.setModificationDate(new Date(0));
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    const form = doc.getForm();
    page.drawText('Agency name:', { x: 54, y: 700, size: 10, font });
    page.drawText('Grant amount:', { x: 54, y: 670, size: 10, font });
    page.drawText('$7,500', { x: 160, y: 670, size: 10, font });
    page.drawText('Signed by the program officer.', { x: 54, y: 640, size: 10, font });
    const agency = form.createTextField('agency');
    agency.setText('Alpha City Housing Department');
    agency.addToPage(page, { x: 150, y: 694, width: 300, height: 18 });
    const amount = form.createTextField('amount');
    amount.setText('$10,000');
    amount.addToPage(page, { x: 150, y: 664, width: 120, height: 18 });
    const pdf = await doc.save({ useObjectStreams: false });
    assert.ok(await foundIn(pdf, 'Agency name: Alpha City Housing Department'), await textOf(pdf));
    assert.ok(await foundIn(pdf, 'Grant amount: $10,000'), await textOf(pdf));
    assert.ok(await foundIn(pdf, 'Signed by the program officer.'));
    assert.equal(await foundIn(pdf, 'Grant amount: $7,500'), false, await textOf(pdf));
  });
});
