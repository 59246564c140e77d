/**
 * Corpus files as untrusted input: a FIFO, a device, a directory, or a symbolic link out of the corpus (to
 * /dev/zero, /etc/passwd) is refused by name before it is read, and the problem quotes none of its bytes;
 * a link that stays inside the corpus is read.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CorpusProblem } from '../../../build/corpus/corpus-problem.ts';
import { CorpusInvalidError } from '../../../build/corpus/corpus-problem.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { readCorpusBytes } from '../../../build/corpus/read-corpus-bytes.ts';
import { copyCorpusWith } from '../../support/copy-corpus-with.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-corpus-bytes-');

function read(path: string, root: string): { bytes: Buffer | undefined; problems: CorpusProblem[] } {
  const problems: CorpusProblem[] = [];
  return { bytes: readCorpusBytes(path, root, 'corpus/x.ndjson', problems), problems };
}

describe('readCorpusBytes', () => {
  const root = join(work, 'corpus');
  mkdirSync(join(root, 'programs'), { recursive: true });
  writeFileSync(join(root, 'real.ndjson'), '{"a":1}\n');
  symlinkSync('real.ndjson', join(root, 'inside.ndjson'));
  symlinkSync('/dev/zero', join(root, 'zero.ndjson'));
  symlinkSync('/etc/passwd', join(root, 'passwd.ndjson'));
  symlinkSync('missing.ndjson', join(root, 'dangling.ndjson'));
  execFileSync('mkfifo', [join(root, 'fifo.ndjson')]);
  mkdirSync(join(root, 'folder.ndjson'));
  mkdirSync(join(work, 'outside'));
  writeFileSync(join(work, 'outside', 'real.ndjson'), '{"b":2}\n');
  symlinkSync(join(work, 'outside'), join(root, 'programs', 'linked'));

  const refused = [
    { what: 'a FIFO', name: 'fifo.ndjson', message: 'not a regular file (a FIFO)' },
    { what: 'a directory', name: 'folder.ndjson', message: 'not a regular file (a directory)' },
    { what: 'a symbolic link to /dev/zero', name: 'zero.ndjson', message: 'a symbolic link to /dev/zero, outside the corpus folder' },
    { what: 'a symbolic link to /etc/passwd', name: 'passwd.ndjson', message: 'a symbolic link to /etc/passwd, outside the corpus folder' },
    { what: 'a dangling symbolic link', name: 'dangling.ndjson', message: 'a symbolic link to a file that does not exist' },
    { what: 'a file under a linked folder that leads out', name: 'programs/linked/real.ndjson', message: `reached through a symbolic link to ${join(work, 'outside', 'real.ndjson')}, outside the corpus folder` },
    { what: 'a missing file', name: 'none.ndjson', message: 'file is missing' },
  ];
  for (const testCase of refused) {
    it(`refuses ${testCase.what} by name, reading nothing`, () => {
      const { bytes, problems } = read(join(root, testCase.name), root);
      assert.equal(bytes, undefined);
      assert.deepEqual(problems, [{ file: 'corpus/x.ndjson', line: 0, path: '$', message: testCase.message }]);
    });
  }

  it('reads a regular file, and a symbolic link to one inside the corpus', () => {
    assert.equal(read(join(root, 'real.ndjson'), root).bytes?.toString(), '{"a":1}\n');
    assert.equal(read(join(root, 'inside.ndjson'), root).bytes?.toString(), '{"a":1}\n');
  });
});

describe('loadCorpus on a program file linked to /etc/passwd', () => {
  it('names the file and quotes none of the target\'s bytes', () => {
    const dir = copyCorpusWith({});
    const victim = join(dir, 'programs', 'alpha.ndjson');
    rmSync(victim);
    symlinkSync('/etc/passwd', victim);
    assert.throws(() => loadCorpus(dir), (error: unknown) => {
      assert.ok(error instanceof CorpusInvalidError);
      const text = JSON.stringify(error.problems);
      assert.ok(!text.includes('root'), text);
      assert.ok(error.problems.some((problem) => problem.file.endsWith('programs/alpha.ndjson') && problem.message.includes('outside the corpus folder')), text);
      return true;
    });
  });
});
