/** `hra validate` refuses what `hra digest` could not hash: both fail cleanly on the same located problem, never crash. */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '../support/temp-dir.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function hra(...args: string[]): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', ...args], { cwd: root, encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

describe('hra validate and hra digest on a number beyond the double range', () => {
  let scratch: string;
  let corpus: string;
  before(() => {
    scratch = makeTempDir('hra-strict-cli-');
    corpus = join(scratch, 'corpus');
    cpSync(join(root, 'corpus'), corpus, { recursive: true });
    // An unknown key, which the row schema lets through: before, digest crashed on "Infinity is not allowed".
    const file = join(corpus, 'programs/detroit.ndjson');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[1] = (lines[1] ?? '').replace(/}\s*$/, ', "note": 1E400}');
    writeFileSync(file, lines.join('\n'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  for (const command of ['validate', 'digest']) {
    it(`${command} exits 1 naming the file, line and path`, () => {
      const run = hra(command, '--corpus', corpus);
      assert.equal(run.status, 1, run.stderr);
      assert.ok(run.stderr.includes('corpus/programs/detroit.ndjson:2 $.note: number 1E400 is beyond the range of an IEEE 754 double'), run.stderr);
      assert.doesNotMatch(run.stderr, /unexpected failure|Infinity is not allowed/);
    });
  }
});
