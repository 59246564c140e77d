/** minimalPayloadPrefix: the shortest raw start whose decoding reaches the prefix reader's stop, per coding. */
import * as assert from 'node:assert/strict';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { minimalPayloadPrefix } from '../../../build/links/minimal-payload-prefix.ts';

const STOP = { cap: 64 * 1024, stopAt: /<\/h1\s*>/i };
const PAGE = Buffer.from(`<html><head><title>T</title></head><body>${'x'.repeat(5000)}<h1>Head</h1 ><p>${'after '.repeat(50_000)}</p>`);
const END_TAG = PAGE.indexOf('</h1 >') + '</h1 >'.length;

describe('minimalPayloadPrefix', () => {
  it('ends an identity body right after the first h1 end tag', async () => {
    assert.equal(await minimalPayloadPrefix(PAGE, undefined, STOP), END_TAG);
    assert.equal(await minimalPayloadPrefix(PAGE, 'identity', STOP), END_TAG);
  });

  for (const [coding, encode] of [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
    it(`finds the shortest ${coding} start that decodes past the end tag, and nothing shorter does`, async () => {
      const raw = encode(PAGE);
      const end = await minimalPayloadPrefix(raw, coding, STOP);
      assert.ok(end !== undefined && end < raw.byteLength);
      assert.equal(await minimalPayloadPrefix(raw.subarray(0, end), coding, STOP), end);
      assert.equal(await minimalPayloadPrefix(raw.subarray(0, end - 1), coding, STOP), undefined);
    });
  }

  it('stops at the cap of decoded bytes when no h1 ends before it, whatever the compression ratio', async () => {
    const flat = Buffer.alloc(8 * 1024 * 1024, 0x61);
    assert.equal(await minimalPayloadPrefix(flat, undefined, STOP), STOP.cap);
    const end = await minimalPayloadPrefix(gzipSync(flat), 'gzip', STOP);
    assert.ok(end !== undefined && end < 1024);
  });

  it('is undefined when the bytes never get there, or the coding is not read', async () => {
    assert.equal(await minimalPayloadPrefix(PAGE.subarray(0, END_TAG - 1), undefined, STOP), undefined);
    assert.equal(await minimalPayloadPrefix(gzipSync(PAGE).subarray(0, 10), 'gzip', STOP), undefined);
    assert.equal(await minimalPayloadPrefix(PAGE, 'zstd', STOP), undefined);
  });

  it('decodes off the event loop: the run goes on turning while a megabyte of gzip is searched', async () => {
    // A page that never closes an h1 within the 1 MiB the link rules read: every probe decodes up to the cap.
    const stop = { cap: 1024 * 1024, stopAt: STOP.stopAt };
    const body = gzipSync(Buffer.from(`<html><body>${'<p>words of a long page without a heading</p>\n'.repeat(40_000)}</body></html>`));
    let turns = 0;
    let turning = true;
    const turn = () => {
      turns += 1;
      if (turning) setImmediate(turn);
    };
    setImmediate(turn);
    const end = await minimalPayloadPrefix(body, 'gzip', stop);
    turning = false;
    assert.ok(end !== undefined && end < body.byteLength);
    // Done on this thread, the probes would run back to back with no turn between them.
    assert.ok(turns > 1, `the event loop turned ${turns} times during the search`);
  });
});
