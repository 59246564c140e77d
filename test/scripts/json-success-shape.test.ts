/**
 * `--json` success output has one shape across the maintainer's commands: the last stdout line is an
 * object whose first member is `"ok": true`, as every failure's is `"ok": false` (cli-contract.test.ts).
 */
import * as assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openArchiveIndex } from '../../build/archive/archive-index.ts';
import { lastJsonLine, ROOT, runHra } from '../support/run-hra.ts';
import { buildTestSnapshot, MINI_CORPUS } from '../support/start-test-gateway.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const dir = makeTempDir('hra-json-success-');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `hra <args> --json`, expects success, and returns the last stdout line's object. */
function succeeded(args: string[]): Record<string, unknown> {
  const run = runHra([...args, '--json']);
  assert.equal(run.status, 0, run.stderr);
  return lastJsonLine(run);
}

describe('--json successes', () => {
  const cases: Array<[string, () => string[], string[]]> = [
    ['validate', () => ['validate', '--corpus', MINI_CORPUS], ['cities', 'rows']],
    ['verify', () => ['verify', buildTestSnapshot(), '--corpus', MINI_CORPUS], ['checks']],
    ['digest', () => ['digest', '--corpus', MINI_CORPUS], ['revision', 'document']],
    ['build', () => ['build', '--corpus', MINI_CORPUS, '--out', join(dir, 'out')], ['revision', 'file']],
    ['changes detect', () => {
      // It appends to the corpus's change log: a copy, compared with the snapshot of the same corpus (nothing to add).
      const corpus = join(dir, 'changes-corpus');
      cpSync(join(ROOT, MINI_CORPUS), corpus, { recursive: true });
      return ['changes', 'detect', '--previous', buildTestSnapshot(), '--corpus', corpus, '--at', '2026-11-20T00:00:00Z'];
    }, ['added', 'byType']],
    ['links report', () => ['links', 'report', '--corpus', MINI_CORPUS], ['at', 'staleSoon']],
    ['links check', () => ['links', 'check', '--corpus', MINI_CORPUS, '--dry-run', '--no-quotes', '--max-age-days', '100000', '--url', 'https://alpha.example.org/roof'], ['checked', 'quotes']],
    ['keys create', () => ['keys', 'create', '--keys', join(dir, 'keys.sqlite'), '--tier', 'nonprofit'], ['id', 'key']],
    ['keys list', () => ['keys', 'list', '--keys', join(dir, 'keys.sqlite')], ['keys']],
    ['prune', () => ['prune', '--out', join(dir, 'out'), '--keep', '1'], ['kept', 'removed']],
    ['quotes replay', () => {
      // An archive with nothing in it: the mini corpus's lines name no archived record.
      const archive = join(dir, 'archive');
      openArchiveIndex(archive).close();
      return ['quotes', 'replay', '--corpus', MINI_CORPUS, '--archive', archive, '--verify'];
    }, ['checked', 'match', 'differ', 'differences']],
  ];
  for (const [name, args, members] of cases) {
    it(`hra ${name} --json: {"ok": true, ...} first, then its own members`, () => {
      const result = succeeded(args());
      assert.equal(Object.keys(result)[0], 'ok', JSON.stringify(result).slice(0, 300));
      assert.equal(result.ok, true);
      for (const member of members) assert.ok(member in result, `${member} in ${JSON.stringify(result).slice(0, 300)}`);
    });
  }
});
