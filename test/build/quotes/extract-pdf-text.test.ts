import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPdfTextExtractor } from '../../../build/quotes/extract-pdf-text.ts';
import { makeTestPdf } from '../../support/make-test-pdf.ts';

describe('createPdfTextExtractor', () => {
  it('reads each page of a multi-page PDF, in order', async () => {
    const extractor = createPdfTextExtractor();
    try {
      const pdf = await makeTestPdf({ kind: 'text', pages: [['Page one', 'second line'], ['Page two']] });
      assert.deepEqual(await extractor.extract(pdf), { ok: true, pages: ['Page one\nsecond line', 'Page two'] });
    } finally {
      await extractor.close();
    }
  });

  it('leaves the caller its bytes', async () => {
    const extractor = createPdfTextExtractor();
    try {
      const pdf = await makeTestPdf({ kind: 'text', pages: [['kept']] });
      const copy = pdf.slice();
      await extractor.extract(pdf);
      assert.deepEqual(pdf, copy);
    } finally {
      await extractor.close();
    }
  });

  it('after a PDF that timed out, the next PDF is read by a fresh worker', async () => {
    const extractor = createPdfTextExtractor({ timeoutMs: 1500 });
    try {
      const slow = await makeTestPdf({ kind: 'slow', operations: 2_000_000 });
      const quick = await makeTestPdf({ kind: 'text', pages: [['after the timeout']] });
      const [first, second] = await Promise.all([extractor.extract(slow), extractor.extract(quick)]);
      assert.deepEqual(first, { ok: false, reason: 'pdf extraction timed out after 1500 ms' });
      // The second waited for the one worker; it must not inherit the stuck one.
      assert.deepEqual(second, { ok: true, pages: ['after the timeout'] });
    } finally {
      await extractor.close();
    }
  });

  it('runs PDFs side by side on up to `workers` threads', async () => {
    const extractor = createPdfTextExtractor({ workers: 2, timeoutMs: 60_000 });
    try {
      const pdfs = await Promise.all([1, 2, 3, 4].map((n) => makeTestPdf({ kind: 'text', pages: [[`pdf ${n}`]] })));
      const answers = await Promise.all(pdfs.map((pdf) => extractor.extract(pdf)));
      assert.deepEqual(answers, [1, 2, 3, 4].map((n) => ({ ok: true, pages: [`pdf ${n}`] })));
    } finally {
      await extractor.close();
    }
  });

  it('enforces the heap cap: a worker over it is stopped and the PDF is inconclusive', async () => {
    // 16 MiB is less than pdf.js itself needs, so the cap is what stops this worker.
    const extractor = createPdfTextExtractor({ maxHeapMb: 16, timeoutMs: 60_000 });
    try {
      const pdf = await makeTestPdf({ kind: 'text', pages: [['capped']] });
      assert.deepEqual(await extractor.extract(pdf), { ok: false, reason: 'pdf extraction ran out of memory (16 MiB cap)' });
    } finally {
      await extractor.close();
    }
  });

  it('answers waiting PDFs when closed, and refuses new ones', async () => {
    const extractor = createPdfTextExtractor({ timeoutMs: 60_000 });
    const slow = await makeTestPdf({ kind: 'slow', operations: 2_000_000 });
    const pending = [extractor.extract(slow), extractor.extract(slow)];
    await extractor.close();
    assert.deepEqual(await Promise.all(pending), [
      { ok: false, reason: 'pdf extraction stopped' },
      { ok: false, reason: 'pdf extraction stopped' },
    ]);
    assert.deepEqual(await extractor.extract(slow), { ok: false, reason: 'pdf extraction stopped' });
  });

  it('refuses bad limits', () => {
    assert.throws(() => createPdfTextExtractor({ workers: 0 }), /pdf workers must be a whole number of at least 1, got 0/);
    assert.throws(() => createPdfTextExtractor({ timeoutMs: 0 }), /pdf timeout must be a positive number of milliseconds, got 0/);
    assert.throws(() => createPdfTextExtractor({ maxHeapMb: 8 }), /pdf heap cap must be at least 16 MiB, got 8/);
  });
});
