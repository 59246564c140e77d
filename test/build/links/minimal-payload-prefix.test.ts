/** minimalPayloadPrefix: the shortest raw start whose decoding reaches the prefix reader's stop, per coding. */
import * as assert from 'node:assert/strict';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { minimalPayloadPrefix } from '../../../build/links/minimal-payload-prefix.ts';

const STOP = { cap: 64 * 1024, stopAt: /<\/h1\s*>/i };
const PAGE = Buffer.from(`<html><head><title>T</title></head><body>${'x'.repeat(5000)}<h1>Head</h1 ><p>${'after '.repeat(50_000)}</p>`);
const END_TAG = PAGE.indexOf('</h1 >') + '</h1 >'.length;

describe('minimalPayloadPrefix', () => {
  it('ends an identity body right after the first h1 end tag', () => {
    assert.equal(minimalPayloadPrefix(PAGE, undefined, STOP), END_TAG);
    assert.equal(minimalPayloadPrefix(PAGE, 'identity', STOP), END_TAG);
  });

  for (const [coding, encode] of [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
    it(`finds the shortest ${coding} start that decodes past the end tag, and nothing shorter does`, () => {
      const raw = encode(PAGE);
      const end = minimalPayloadPrefix(raw, coding, STOP);
      assert.ok(end !== undefined && end < raw.byteLength);
      assert.equal(minimalPayloadPrefix(raw.subarray(0, end), coding, STOP), end);
      assert.equal(minimalPayloadPrefix(raw.subarray(0, end - 1), coding, STOP), undefined);
    });
  }

  it('stops at the cap of decoded bytes when no h1 ends before it, whatever the compression ratio', () => {
    const flat = Buffer.alloc(8 * 1024 * 1024, 0x61);
    assert.equal(minimalPayloadPrefix(flat, undefined, STOP), STOP.cap);
    const end = minimalPayloadPrefix(gzipSync(flat), 'gzip', STOP);
    assert.ok(end !== undefined && end < 1024);
  });

  it('is undefined when the bytes never get there, or the coding is not read', () => {
    assert.equal(minimalPayloadPrefix(PAGE.subarray(0, END_TAG - 1), undefined, STOP), undefined);
    assert.equal(minimalPayloadPrefix(gzipSync(PAGE).subarray(0, 10), 'gzip', STOP), undefined);
    assert.equal(minimalPayloadPrefix(PAGE, 'zstd', STOP), undefined);
  });
});
