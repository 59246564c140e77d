import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { HashAbortedError, INLINE_HASH_BYTES, sha256OfDescriptor } from '../../../gateway/snapshot/sha256-of-descriptor.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const dir = makeTempDir('hra-sha256-');
after(() => rmSync(dir, { recursive: true, force: true }));

describe('sha256OfDescriptor', () => {
  const sizes = [0, 1, INLINE_HASH_BYTES, INLINE_HASH_BYTES + 4 * 1024 * 1024 + 3];
  for (const size of sizes) {
    it(`hashes every byte of a ${size}-byte file (${size <= INLINE_HASH_BYTES ? 'in place' : 'on a worker thread'})`, async () => {
      const bytes = randomBytes(size);
      const file = join(dir, `file-${size}`);
      writeFileSync(file, bytes);
      const fd = openSync(file, 'r');
      try {
        assert.equal(await sha256OfDescriptor(fd, size), createHash('sha256').update(bytes).digest('hex'));
      } finally {
        closeSync(fd);
      }
    });
  }

  it('rejects with HashAbortedError when aborted, before or during the hash', async () => {
    const file = join(dir, 'large');
    writeFileSync(file, Buffer.alloc(INLINE_HASH_BYTES * 4));
    const fd = openSync(file, 'r');
    try {
      await assert.rejects(sha256OfDescriptor(fd, INLINE_HASH_BYTES * 4, AbortSignal.abort()), HashAbortedError);
      const controller = new AbortController();
      const hashing = sha256OfDescriptor(fd, INLINE_HASH_BYTES * 4, controller.signal);
      controller.abort();
      await assert.rejects(hashing, HashAbortedError);
    } finally {
      closeSync(fd);
    }
  });
});
