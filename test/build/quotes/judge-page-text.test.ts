/** One page's text judged against several quotes: the evidence measures, the verdicts in order, the page's amounts. */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { judgePageText } from '../../../build/quotes/judge-page-text.ts';

describe('judgePageText', () => {
  it('judges every quote on the text, in the order given', () => {
    const judgment = judgePageText({ kind: 'text', format: 'html', text: 'Grants up to $5,000 for roofs.' }, ['up to $6,000', 'GRANTS up to $5,000', 'up to $5']);
    assert.deepEqual(judgment.found, [false, true, false]);
    assert.deepEqual(judgment.statedAmounts, [{ text: '$5,000', value: 5000 }]);
  });

  it('measures the extracted text as an evidence line does: code points and the SHA-256 of its UTF-8 bytes', () => {
    const text = 'Up to $5,000 \u{1F3E0} for r\u00e9novation, \u4f4f\u5b85.';
    const judgment = judgePageText({ kind: 'text', format: 'pdf', text }, ['up to $5,000']);
    assert.equal(judgment.textLength, [...text].length);
    assert.equal(judgment.textLength, text.length - 1, 'the house emoji is one code point, two UTF-16 units');
    assert.equal(judgment.textSha256, createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
    assert.equal(judgment.statedAmounts, undefined, 'no amounts are listed when every quote is found');
  });

  it('reads pdf text with the line-break rules of its format, html text without them', () => {
    const text = 'Loans at a zero-\npercent interest rate.';
    assert.deepEqual(judgePageText({ kind: 'text', format: 'pdf', text }, ['a zero-percent interest rate']).found, [true]);
    assert.deepEqual(judgePageText({ kind: 'text', format: 'html', text }, ['a zero-percent interest rate']).found, [false]);
  });

  it('carries the reason a page with unreadable pages cannot prove a quote absent', () => {
    const reason = 'pdf text layer unreadable on 1 of 2 pages (broken font encoding)';
    const judgment = judgePageText({ kind: 'text', format: 'pdf', text: 'Up to $5,000.\n\f\nsigni\u001Cer', unreadable: reason }, ['up to $5,000', 'up to $9,000']);
    assert.deepEqual(judgment.found, [true, false]);
    assert.equal(judgment.unreadable, reason);
  });
});
