/** The links bench's generated pages follow the measured real documents: sizes, h1 offsets and compressibility. */
import * as assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { readPageHeadings } from '../../../build/links/read-page-headings.ts';
import { HTML_PAGE_SHAPES, htmlShapeFor, pdfSizeFor, PDF_SIZES, syntheticHtml } from '../../../scripts/bench/bench-page-shapes.ts';

const PROGRAM = { title: 'Home Repair Grant | Agency', heading: 'Home Repair Grant' };
const urls = Array.from({ length: 2300 }, (_, i) => `http://city-${i % 97}.example.org.test/programs/${i}`);

describe('syntheticHtml', () => {
  it('gives each URL its real shape\'s size with the first </h1 at its offset, the same bytes every time', () => {
    for (const url of urls.slice(0, 150)) {
      const page = syntheticHtml(url, PROGRAM);
      const [bytes, h1At] = htmlShapeFor(url);
      assert.equal(page.byteLength, bytes, url);
      assert.equal(page.indexOf('</h1'), h1At, url);
      assert.deepEqual(readPageHeadings(page.toString('latin1')), { title: PROGRAM.title, heading: PROGRAM.heading });
      assert.equal(Buffer.compare(syntheticHtml(url, PROGRAM), page), 0);
    }
    assert.notEqual(Buffer.compare(syntheticHtml(urls[0]!, PROGRAM), syntheticHtml(urls[97]!, PROGRAM)), 0);
  });

  it('places the paragraphs right after the h1, outside any tag', () => {
    const page = syntheticHtml(urls[3]!, { ...PROGRAM, paragraphs: ['Grants of up to $5,000.'] }).toString('latin1');
    assert.match(page, /<\/h1><p>Grants of up to \$5,000\.<\/p>/);
    const before = page.slice(0, page.indexOf('</h1'));
    assert.equal(before.split('<').length, before.split('>').length, 'every tag before the h1 is whole');
  });

  it('gzips about as the real pages do (0.159 of their bytes in all, 0.180 the median page)', () => {
    let plain = 0;
    let zipped = 0;
    for (const url of urls.slice(0, 200)) {
      const page = syntheticHtml(url, PROGRAM);
      plain += page.byteLength;
      zipped += gzipSync(page).byteLength;
    }
    const share = zipped / plain;
    assert.ok(share >= 0.14 && share <= 0.2, `${share.toFixed(3)}`);
  });

  it('draws every real shape and size at about its share', () => {
    for (const [draw, count] of [[htmlShapeFor, HTML_PAGE_SHAPES.length], [pdfSizeFor, PDF_SIZES.length]] as const) {
      const seen = new Map<unknown, number>();
      for (const url of urls) seen.set(draw(url), (seen.get(draw(url)) ?? 0) + 1);
      assert.equal(seen.size, count);
      for (const n of seen.values()) assert.ok(n > (0.4 * urls.length) / count && n < (1.6 * urls.length) / count, `${n} of ${urls.length}`);
    }
  });
});
