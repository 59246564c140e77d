/**
 * Issue 40 item 2: ligature glyphs. pdf.js maps a glyph its font names in the Adobe Glyph List's way even
 * where the subset's ToUnicode map lacks it; a glyph with no mapping and no name it knows comes out as its
 * raw code (a C0 control), and a quote that fails only there is `inconclusive`, never `not-found`. The PDFs
 * are written object by object (make-raw-pdf.ts): a font subset whose /Differences names code 1 and whose
 * ToUnicode map has every letter but code 1.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractPageText, type PageText } from '../../../build/quotes/extract-page-text.ts';
import { judgePageText, UNMAPPED_GLYPHS_REASON } from '../../../build/quotes/judge-page-text.ts';
import { quoteFailsAtUnmappedGlyphs } from '../../../build/quotes/quote-fails-at-unmapped-glyphs.ts';
import { makeOnePagePdf } from '../../support/make-raw-pdf.ts';

const QUOTE = 'Financial help of up to $5,000 for roofs';
// Enough text that one broken glyph stays under the unreadable-page share (unreadable-text-layer.ts).
const FILLER = Array.from({ length: 12 }, (_, n) => `(Line ${n + 1} of the program guidelines describes who may apply and how.) '`).join(' ');

/** A one-page PDF in a subset font whose code 1 is the glyph `glyphName`, absent from its ToUnicode map, drawing `\x01nancial help ...`. */
function ligaturePdf(glyphName: string, amount = '$5,000'): Uint8Array {
  const map = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Subset-UCS def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    '1 beginbfrange <20> <7E> <0020> endbfrange',
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const content = `BT /F1 11 Tf 54 740 Td 14 TL (\\001nancial help of up to ${amount} for roofs) Tj ${FILLER} ET`;
  return makeOnePagePdf(content, '/F1 5 0 R', [
    { body: `<< /Type /Font /Subtype /Type1 /BaseFont /KQWZTB+Minion /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [1 /${glyphName}] >> /ToUnicode 6 0 R >>` },
    { body: '<< >>', stream: map },
  ]);
}

async function textOf(pdf: Uint8Array): Promise<Extract<PageText, { kind: 'text' }>> {
  const page = await extractPageText({ body: pdf, contentType: 'application/pdf', complete: true });
  assert.equal(page.kind, 'text', JSON.stringify(page));
  return page as Extract<PageText, { kind: 'text' }>;
}

describe('ligature glyphs without a ToUnicode entry', () => {
  for (const [name, letters] of [['fi', 'fi'], ['f_i', 'fi'], ['uniFB01', 'fi'], ['ffi', 'ffi'], ['f_f_i', 'ffi']] as const) {
    it(`a glyph the font names ${name} reads as ${letters}`, async () => {
      const page = await textOf(ligaturePdf(name));
      assert.match(page.text, new RegExp(`^${letters}nancial help`, 'u'));
      assert.equal(page.unreadable, undefined);
    });
  }

  it('a glyph with no name pdf.js knows comes out as its raw code; a quote failing only there is inconclusive', async () => {
    for (const name of ['g17', 'fi.alt']) {
      const page = await textOf(ligaturePdf(name));
      assert.match(page.text, /^\u0001nancial help/u, name);
      assert.equal(page.unreadable, undefined, 'one broken glyph in a long page does not make the page unreadable');
      const judgment = judgePageText(page, [QUOTE, 'Financial help of up to $6,000 for roofs', 'Line 3 of the program guidelines describes who may not apply']);
      assert.deepEqual(judgment.found, [false, false, false]);
      // The changed amount and the quote missing elsewhere fail on letters no glyph stands for: not found.
      assert.deepEqual(judgment.inconclusive, [UNMAPPED_GLYPHS_REASON, null, null], name);
    }
  });

  it('an unmapped glyph stands for one to three letters, never a digit or a sign', () => {
    const text = 'up to $\u00015,000 for \u0001nancial and o\u0001ce help';
    assert.equal(quoteFailsAtUnmappedGlyphs('financial and office help', text), true);
    assert.equal(quoteFailsAtUnmappedGlyphs('up to $25,000', text), false);
    assert.equal(quoteFailsAtUnmappedGlyphs('for financial', 'for f\u0001nancial'.replace('f\u0001', '\u0001')), true);
    assert.equal(quoteFailsAtUnmappedGlyphs('for financial', 'for financial'), false, 'no unmapped glyph, nothing to excuse');
    assert.equal(quoteFailsAtUnmappedGlyphs('for ffffinancial', 'for \u0001nancial'), false, 'four letters are more than any ligature');
  });
});
