import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readABodyLastTime } from '../../../build/links/read-a-body-last-time.ts';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('readABodyLastTime', () => {
  it('is true only for a 2xx whose archived payload is not empty', () => {
    assert.equal(readABodyLastTime({ httpStatus: 200, payloadSha256: 'ab'.repeat(32) }), true);
    assert.equal(readABodyLastTime({ httpStatus: 299, payloadSha256: 'ab'.repeat(32) }), true);
    // A HEAD-settled answer (a PDF, any non-HTML 2xx) is archived with an empty payload.
    assert.equal(readABodyLastTime({ httpStatus: 200, payloadSha256: EMPTY_SHA256 }), false);
    // Not archived (`--no-archive`): nothing says a body was read.
    assert.equal(readABodyLastTime({ httpStatus: 200 }), false);
    // A 404 page's body was read on the HEAD fallback; HEAD may settle it anew (a redirect, a 2xx PDF).
    assert.equal(readABodyLastTime({ httpStatus: 404, payloadSha256: 'ab'.repeat(32) }), false);
    assert.equal(readABodyLastTime({ httpStatus: null }), false);
    assert.equal(readABodyLastTime({ httpStatus: 199, payloadSha256: 'ab'.repeat(32) }), false);
    assert.equal(readABodyLastTime(undefined), false);
  });
});
