/**
 * Issue 40 item 1: a scanned page's invisible OCR layer is read with its recognizer's errors forgiven
 * within bounds (missing spaces, a few letter confusions), never its amounts; what still fails there is
 * `inconclusive: OCR text layer`. The PDFs are generated (make-test-pdf.ts): a grey image with the layer over it.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractPageText, type PageText } from '../../../build/quotes/extract-page-text.ts';
import { judgePageText, OCR_LAYER_REASON } from '../../../build/quotes/judge-page-text.ts';
import { ocrSubstitutionBudget, OCR_MAX_SUBSTITUTIONS, quoteOccursInOcrLayer } from '../../../build/quotes/quote-occurs-in-ocr-layer.ts';
import { makeTestPdf } from '../../support/make-test-pdf.ts';

const OCR_LINES = [
  'Homeowner Resnonsibilities during Remodelinq',
  'The housecaptainis the owner who signs the contract.',
  'Grants of up to $7,500 per home are paid to the contractor.',
];

async function textOf(pdf: Uint8Array): Promise<Extract<PageText, { kind: 'text' }>> {
  const page = await extractPageText({ body: pdf, contentType: 'application/pdf', complete: true });
  assert.equal(page.kind, 'text', JSON.stringify(page));
  return page as Extract<PageText, { kind: 'text' }>;
}

describe('a scanned page with an OCR text layer', () => {
  it('is told from a page whose invisible text is not over an image, and from ordinary text', async () => {
    assert.deepEqual((await textOf(await makeTestPdf({ kind: 'ocr-scan', lines: OCR_LINES }))).ocrPages, [0]);
    assert.equal((await textOf(await makeTestPdf({ kind: 'text', pages: [OCR_LINES] }))).ocrPages, undefined);
  });

  it('finds quotes across its missing spaces and letter confusions, and not a changed amount', async () => {
    const page = await textOf(await makeTestPdf({ kind: 'ocr-scan', lines: OCR_LINES }));
    const quotes = [
      'Homeowner Responsibilities during Remodeling',
      'The house captain is the owner who signs the contract.',
      'Grants of up to $7,500 per home',
      'Grants of up to $7,800 per home',
      'Grants of up to $7,50 per home',
    ];
    const judgment = judgePageText(page, quotes);
    assert.deepEqual(judgment.found, [true, true, true, false, false]);
    // A changed amount is never found on the layer, and never called absent either: the layer may misread.
    assert.deepEqual(judgment.inconclusive, [null, null, null, OCR_LAYER_REASON, OCR_LAYER_REASON]);
  });

  it('the same errors in an ordinary text layer are not forgiven: the quote is not found, conclusively', async () => {
    const judgment = judgePageText(await textOf(await makeTestPdf({ kind: 'text', pages: [OCR_LINES] })), ['Homeowner Responsibilities during Remodeling']);
    assert.deepEqual(judgment.found, [false]);
    assert.equal(judgment.inconclusive, undefined);
  });
});

describe('quoteOccursInOcrLayer', () => {
  const layer = 'Eligib1e owners receive up to $10,000 for roof re-\nnairs; the rnayor signs. A fee of $1 500 applies.';

  it('reads 1 for l between letters, rn for m, a line-end hyphen as nothing', () => {
    assert.equal(quoteOccursInOcrLayer('Eligible owners receive up to $10,000 for roof repairs', layer), true);
    assert.equal(quoteOccursInOcrLayer('the mayor signs', layer), true);
  });

  it('never confuses digits, signs or a space between digits, and keeps numbers whole', () => {
    assert.equal(quoteOccursInOcrLayer('up to $10,000', layer), true);
    assert.equal(quoteOccursInOcrLayer('up to $10,001', layer), false);
    assert.equal(quoteOccursInOcrLayer('up to $1,000', layer), false);
    assert.equal(quoteOccursInOcrLayer('up to $10,00', layer), false);
    assert.equal(quoteOccursInOcrLayer('a fee of $1500', layer), false);
    assert.equal(quoteOccursInOcrLayer('up to S10,000', layer), false);
    assert.equal(quoteOccursInOcrLayer('Eligib1e', 'Eligible owners'), false, 'a quote digit is never a page letter');
  });

  it('spends at most its budget of substitutions: one per ten letters, at most three', () => {
    assert.equal(ocrSubstitutionBudget(9), 0);
    assert.equal(ocrSubstitutionBudget(25), 2);
    assert.equal(ocrSubstitutionBudget(500), OCR_MAX_SUBSTITUTIONS);
    assert.equal(quoteOccursInOcrLayer('Remodeling', 'Remodelinq'), true);
    assert.equal(quoteOccursInOcrLayer('Remodel', 'Remodcl'), false, 'seven letters have no substitution to spend');
    assert.equal(quoteOccursInOcrLayer('Responsibilities', 'Resnonsibi1itics'), false, 'sixteen letters have one');
  });
});
