/** One page judged against several quotes: one extraction, the evidence measures, the verdicts in order. */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { FetchedPage, PageText } from '../../../build/quotes/extract-page-text.ts';
import { judgePageQuotes, type ExtractText } from '../../../build/quotes/judge-page-quotes.ts';

const PAGE: FetchedPage = { body: new Uint8Array([1, 2, 3]), contentType: 'text/html', complete: true };

/** An extraction that answers `answer` and counts its calls. */
function scripted(answer: PageText): ExtractText & { calls: FetchedPage[] } {
  const calls: FetchedPage[] = [];
  return Object.assign(async (page: FetchedPage) => {
    calls.push(page);
    return answer;
  }, { calls });
}

describe('judgePageQuotes', () => {
  it('extracts the page once and judges every quote on that text, in the order given', async () => {
    const extract = scripted({ kind: 'text', format: 'html', text: 'Grants up to $5,000 for roofs.' });
    const judgment = await judgePageQuotes(PAGE, ['up to $6,000', 'GRANTS up to $5,000', 'up to $5'], extract);
    assert.equal(extract.calls.length, 1);
    assert.equal(extract.calls[0], PAGE, 'the page goes to the extraction as given');
    assert.equal(judgment.kind, 'judged');
    assert.deepEqual(judgment.found, [false, true, false]);
    assert.equal(judgment.format, 'html');
  });

  it('measures the extracted text as an evidence line does: code points and the SHA-256 of its UTF-8 bytes', async () => {
    const text = 'Up to $5,000 \u{1F3E0} for r\u00e9novation, \u4f4f\u5b85.';
    const judgment = await judgePageQuotes(PAGE, ['up to $5,000'], scripted({ kind: 'text', format: 'pdf', text }));
    assert.equal(judgment.kind, 'judged');
    assert.deepEqual(judgment.measures, { textLength: [...text].length, textSha256: createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex') });
    assert.equal(judgment.measures.textLength, text.length - 1, 'the house emoji is one code point, two UTF-16 units');
    assert.equal(judgment.text, text, 'the text before normalization');
  });

  it('judges no quote on a page that yields no text, and says why', async () => {
    const judgment = await judgePageQuotes(PAGE, ['a', 'b'], scripted({ kind: 'inconclusive', format: 'pdf', reason: 'pdf has no text layer' }));
    assert.deepEqual(judgment, { kind: 'inconclusive', format: 'pdf', reason: 'pdf has no text layer' });
  });
});
