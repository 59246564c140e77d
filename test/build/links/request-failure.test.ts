import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeRequestFailure, RequestFailure } from '../../../build/links/request-failure.ts';

// What Node 20's TLS layer throws on a plain-HTTP answer to a TLS hello: OpenSSL's text, several lines long.
const OPENSSL_TEXT = 'C0F7A1E6F07F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:354:\n';

describe('describeRequestFailure', () => {
  it('cuts a TLS library\'s text at its first line, so an inconclusive reason is one line', () => {
    const tls = Object.assign(new Error(`${OPENSSL_TEXT}second line of the library`), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' });
    const failure = describeRequestFailure(tls, { viaProxy: true, timedOut: false });
    assert.equal(failure.kind, 'tls');
    assert.equal(failure.detail, OPENSSL_TEXT.trimEnd());
    assert.equal(failure.message, `tls: ${OPENSSL_TEXT.trimEnd()}`);
    assert.doesNotMatch(failure.message, /[\r\n]/);
  });

  it('keeps a one-line reason as it is', () => {
    assert.equal(new RequestFailure('connection', 'socket hang up').message, 'connection: socket hang up');
    assert.equal(new RequestFailure('tls', 'first\r\nsecond').detail, 'first');
  });
});
