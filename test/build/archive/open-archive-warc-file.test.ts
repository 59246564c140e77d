/** openArchiveWarcFile: an index's `file` value opens only a regular file inside the archive's warc/ folder. */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openArchiveWarcFile } from '../../../build/archive/open-archive-warc-file.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-warc-file-');
const archive = join(work, 'archive');
const day = join(archive, 'warc', '2026', '11', '20');
mkdirSync(day, { recursive: true });
mkdirSync(join(work, 'outside'));
writeFileSync(join(day, 'real.warc.gz'), 'bytes');
writeFileSync(join(day, 'open.warc.gz.open'), 'being written');
writeFileSync(join(work, 'outside', 'moved.warc.gz'), 'outside bytes');
symlinkSync(join(work, 'outside', 'moved.warc.gz'), join(day, 'link.warc.gz'));
symlinkSync(join(work, 'outside'), join(archive, 'warc', 'out'));
mkdirSync(join(day, 'dir.warc.gz'));
execFileSync('mkfifo', [join(day, 'fifo.warc.gz')]);

const fail = (problem: string) => new Error(`refused: ${problem}`);

describe('openArchiveWarcFile', () => {
  it('opens a file inside warc/, or its .open name while it is written', async () => {
    for (const [file, size] of [['warc/2026/11/20/real.warc.gz', 5], ['warc/2026/11/20/open.warc.gz', 13]] as const) {
      const opened = await openArchiveWarcFile(archive, file, fail);
      assert.equal(opened.size, size);
      await opened.handle.close();
    }
  });

  const refused: Array<[string, unknown, RegExp]> = [
    ['a .. path out of the archive', 'warc/../../outside/moved.warc.gz', /has an empty, \. or \.\. segment/],
    ['a path to /etc/passwd', '../../../etc/passwd', /is not inside warc\//],
    ['an absolute path (/dev/zero)', '/dev/zero', /is not inside warc\//],
    ['a symbolic link to a file outside', 'warc/2026/11/20/link.warc.gz', /is a symbolic link, not a regular file/],
    ['a folder that links outside', 'warc/out/moved.warc.gz', /resolves to .*outside.*, outside the archive's warc\/ folder/],
    ['a FIFO (which blocked the open forever)', 'warc/2026/11/20/fifo.warc.gz', /is a FIFO, not a regular file/],
    ['a directory', 'warc/2026/11/20/dir.warc.gz', /is a directory, not a regular file/],
    ['a number', 42, /42 is not a file name/],
    ['a missing file', 'warc/2026/11/20/none.warc.gz', /refused: file is missing$/],
  ];
  for (const [name, file, problem] of refused) {
    it(`refuses ${name}, by name`, async () => {
      await assert.rejects(openArchiveWarcFile(archive, file, fail), problem);
    });
  }
});
