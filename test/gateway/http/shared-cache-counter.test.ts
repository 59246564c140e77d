/**
 * The shared-cache tests tell a counter the gateway computed for a request from a stored copy of an
 * earlier one by its window and what was left: a run that crosses a minute's end must not read as a replay,
 * and a replay must not read as fresh.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BEFORE_ANY_COUNTER, counterMark, isLaterCounter, type RawAnswer } from '../../support/shared-cache-client.ts';

function answerWith(headers: Record<string, string>): RawAnswer {
  return { status: 200, headers, body: Buffer.alloc(0) };
}

describe('isLaterCounter', () => {
  const earlier = { reset: 1_800_000_060, remaining: 999_965 };

  it('takes fewer left in the same window as later', () => {
    assert.equal(isLaterCounter({ reset: earlier.reset, remaining: 999_964 }, earlier), true);
  });

  it('takes a later window as later, whatever is left in it (the count starts again at a minute\'s end)', () => {
    assert.equal(isLaterCounter({ reset: earlier.reset + 60, remaining: 999_998 }, earlier), true);
  });

  it('refuses the same counter again, more left in the same window, and an earlier window', () => {
    assert.equal(isLaterCounter({ ...earlier }, earlier), false);
    assert.equal(isLaterCounter({ reset: earlier.reset, remaining: 999_966 }, earlier), false);
    assert.equal(isLaterCounter({ reset: earlier.reset - 60, remaining: 1 }, earlier), false);
  });

  it('refuses an answer without the headers, and takes any real one after none', () => {
    assert.equal(isLaterCounter(counterMark(answerWith({})), BEFORE_ANY_COUNTER), false);
    const mark = counterMark(answerWith({ 'x-ratelimit-reset': '1800000060', 'x-ratelimit-remaining': '999999' }));
    assert.deepEqual(mark, { reset: 1_800_000_060, remaining: 999_999 });
    assert.equal(isLaterCounter(mark, BEFORE_ANY_COUNTER), true);
  });
});
