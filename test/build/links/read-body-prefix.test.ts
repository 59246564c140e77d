import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { readBodyPrefix } from '../../../build/links/read-body-prefix.ts';

const page = `<html><head><title>Not here</title></head><body><h1>Page not found</h1>${'<p>filler</p>'.repeat(5000)}</body></html>`;
const chunked = (bytes: Buffer, size = 1000) => {
  let pulled = 0;
  const stream = new Readable({
    read() {
      const start = pulled * size;
      pulled += 1;
      this.push(start < bytes.length ? bytes.subarray(start, start + size) : null);
    },
  });
  return { stream, pulled: () => pulled };
};

describe('readBodyPrefix', () => {
  for (const [coding, encode] of [['identity', (b: Buffer) => b], ['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
    it(`decodes ${coding} and stops after the first h1`, async () => {
      const { stream, pulled } = chunked(encode(Buffer.from(page)), 200);
      const text = await readBodyPrefix(stream, coding === 'identity' ? undefined : coding, { cap: 1 << 20, stopAt: /<\/h1/i });
      assert.ok(text?.includes('<h1>Page not found</h1>'));
      assert.ok((text?.length ?? 0) < page.length, 'stopped early');
      if (coding === 'identity') assert.ok(pulled() < 5, 'the rest was never read');
      assert.ok(stream.destroyed);
    });
  }

  it('reads no further than the cap', async () => {
    const { stream } = chunked(Buffer.from(page.replaceAll('h1>', 'h2>')));
    const text = await readBodyPrefix(stream, undefined, { cap: 3000, stopAt: /<\/h1/i });
    assert.equal(text?.length, 3000);
  });

  it('returns undefined for a coding it cannot read, and the prefix of a body that breaks off', async () => {
    assert.equal(await readBodyPrefix(Readable.from([Buffer.from('x')]), 'zstd', { cap: 100, stopAt: /<\/h1/ }), undefined);
    const broken = new Readable({
      read() {
        this.push(Buffer.from('<title>Half</title>'));
        this.destroy(new Error('socket hang up'));
      },
    });
    assert.equal(await readBodyPrefix(broken, undefined, { cap: 100, stopAt: /<\/h1/ }), '<title>Half</title>');
  });
});
