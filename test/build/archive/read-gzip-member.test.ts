/** readGzipMember: every number held to a bound before it is used, and inflating capped. */
import * as assert from 'node:assert/strict';
import { open } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { before, describe, it } from 'node:test';
import { MAX_MEMBER_BYTES, MAX_RECORD_BYTES } from '../../../build/archive/archive-read-limits.ts';
import { GzipMemberError, readGzipMember } from '../../../build/archive/read-gzip-member.ts';
import { writeZeroBomb } from '../../support/craft-warc-member.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-gzip-member-');
const two = join(work, 'two.gz');
const bomb = join(work, 'bomb.gz');
const first = gzipSync(Buffer.from('first member'));
const second = gzipSync(Buffer.from('second'));
let bombLength = 0;

async function read(file: string, offset: unknown, length?: unknown) {
  const handle = await open(file, 'r');
  try {
    return await readGzipMember(handle, (await handle.stat()).size, offset, length);
  } finally {
    await handle.close();
  }
}

before(async () => {
  writeFileSync(two, Buffer.concat([first, second]));
  // 256 MiB of zeros: about 250 KB on disk, ten times the cap.
  bombLength = await writeZeroBomb(bomb, { id: '<urn:uuid:00000000-0000-4000-8000-0000000000b0>', url: 'http://bomb.test/' }, 256 * 1024 * 1024);
});

describe('readGzipMember', () => {
  it('reads each member of a file by offset and length, and scans one without a length', async () => {
    assert.equal((await read(two, 0, first.length)).inflated.toString(), 'first member');
    assert.equal((await read(two, first.length, second.length)).inflated.toString(), 'second');
    const scanned = await read(two, 0);
    assert.equal(scanned.length, first.length);
    assert.equal((await read(two, scanned.length)).inflated.toString(), 'second');
  });

  const refusals: Array<[string, unknown, unknown, RegExp]> = [
    ['a length of 3·10^9 (past 2^31, which aborted node)', 0, 3e9, /^length 3000000000 is past the \d+ bytes a record's member may take$/],
    ['a negative length', 0, -5, /^length -5 is not a byte count$/],
    ['a text length', 0, '12', /^length "12" is not a byte count$/],
    ['a length of 10^12', 0, 1e12, /is past the \d+ bytes/],
    ['a fractional offset', 0.5, 10, /^offset 0\.5 is not a byte offset$/],
    ['an offset past the end', 10_000, 10, /^offset 10000 is past the file's end at \d+$/],
    ['a length past the end', 0, first.length + second.length + 1, /^file ends at \d+, before the indexed end \d+$/],
    ['a length that is not the member\'s', 0, first.length + 2, /is \d+ bytes, indexed as \d+|ends past the bytes/],
    ['an offset inside a member', 3, 10, /^not a gzip member at offset 3$/],
  ];
  for (const [name, offset, length, problem] of refusals) {
    it(`refuses ${name}`, async () => {
      await assert.rejects(read(two, offset, length), (error: Error) => error instanceof GzipMemberError && problem.test(error.message));
    });
  }

  it('stops inflating a bomb at the cap, with or without its length', async () => {
    assert.ok(bombLength < MAX_MEMBER_BYTES);
    const problem = new RegExp(`^the member at offset 0 inflates past ${MAX_RECORD_BYTES} bytes`);
    await assert.rejects(read(bomb, 0, bombLength), (error: Error) => error instanceof GzipMemberError && problem.test(error.message));
    await assert.rejects(read(bomb, 0), (error: Error) => error instanceof GzipMemberError && problem.test(error.message));
  });
});
