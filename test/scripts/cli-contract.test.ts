/**
 * The operator contract's promises for every subcommand, checked on the real CLI: a failure exits non-zero
 * with one stderr line naming the flag or file at fault; with `--json` the last stdout line is
 * `{"ok": false, "error": ...}`; `hra --version` prints package.json's version.
 */
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Command } from 'commander';
import { openKeyStore } from '../../gateway/keys/sqlite-key-store.ts';
import { registerCommands } from '../../scripts/commands/register-commands.ts';
import { buildTestSnapshot, MINI_CORPUS } from '../support/start-test-gateway.ts';
import { lastJsonLine, ROOT, runHra, stderrLines, type HraRun } from '../support/run-hra.ts';

const dir = mkdtempSync(join(tmpdir(), 'hra-cli-contract-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const keys = join(dir, 'keys.sqlite');
const aFile = join(dir, 'a-file.txt');
const missing = join(dir, 'no-such-corpus');
let snapshot = '';

before(async () => {
  snapshot = buildTestSnapshot();
  const store = openKeyStore(keys, { now: () => new Date() });
  await store.close();
  writeFileSync(aFile, 'not a directory\n');
});

/** Exit 1, exactly one stderr line matching `message`, and nothing on stdout. */
function assertOneLineFailure(run: HraRun, message: RegExp): string {
  assert.equal(run.status, 1, run.stderr);
  const lines = stderrLines(run);
  assert.equal(lines.length, 1, `one stderr line, got:\n${run.stderr}`);
  assert.match(lines[0] ?? '', message);
  return lines[0] ?? '';
}

describe('hra --version', () => {
  it('prints the version of package.json and exits 0', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const run = runHra(['--version']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `${version}\n`);
  });
});

describe('failures name the flag or file and what is wrong, on one line', () => {
  // [case, args, the one stderr line, whether the command takes --json]
  const cases: ReadonlyArray<[string, () => string[], RegExp, boolean]> = [
    ['keys create --dataset <a directory>', () => ['keys', 'create', '--keys', keys, '--tier', 'trial', '--cities', 'alpha', '--dataset', dir],
      /^hra: --dataset \S+: is a directory, not a snapshot file$/, true],
    ['serve --dataset <a directory>', () => ['serve', '--dataset', dir, '--keys', keys, '--port', '0', '--log-level', 'silent'],
      /^hra: --dataset \S+: is a directory, not a snapshot file$/, false],
    ['serve --host 999.1.1.1', () => ['serve', '--dataset', snapshot, '--keys', keys, '--port', '0', '--host', '999.1.1.1', '--log-level', 'silent'],
      /^hra: --host: "999\.1\.1\.1" is not a valid IPv4 address/, false],
    ['verify <a directory>', () => ['verify', dir, '--corpus', MINI_CORPUS],
      /^hra: verify <file> \S+: is a directory, not a snapshot file$/, true],
    ['build --out <a file>', () => ['build', '--corpus', MINI_CORPUS, '--out', aFile],
      /^hra: --out \S+a-file\.txt: exists and is not a directory$/, true],
    ['validate --corpus <a missing directory>', () => ['validate', '--corpus', missing],
      /^hra: --corpus \S+no-such-corpus: corpus directory not found$/, true],
    ['digest --corpus <a file>', () => ['digest', '--corpus', aFile],
      /^hra: --corpus \S+a-file\.txt: is a file, not a corpus directory$/, true],
    ['a mistyped flag (--corpsu) beside a missing required one', () => ['validate', '--corpsu', MINI_CORPUS],
      /^hra: unknown option '--corpsu' \(did you mean --corpus\?\)$/, true],
    ['a missing required option', () => ['validate'],
      /^hra: required option '--corpus <dir>' not specified$/, true],
    ['an unknown command', () => ['valdate'],
      /^hra: unknown command 'valdate' \(did you mean validate\?\)$/, false],
  ];
  for (const [name, args, message, takesJson] of cases) {
    it(name, () => {
      assertOneLineFailure(runHra(args()), message);
    });
    if (takesJson) {
      it(`${name}, with --json: the same line, and {"ok": false} as the last stdout line`, () => {
        const run = runHra([...args(), '--json']);
        const line = assertOneLineFailure({ ...run, stdout: '' }, message);
        assert.deepEqual(lastJsonLine(run), { ok: false, error: line.slice('hra: '.length) });
      });
    }
  }
});

describe('a key store path with no store', () => {
  it('serve refuses it on one line and does not create it (only keys create may)', () => {
    const typo = join(dir, 'kyes.sqlite');
    const run = runHra(['serve', '--dataset', snapshot, '--keys', typo, '--port', '0', '--log-level', 'silent']);
    assertOneLineFailure(run, /^hra: --keys \S+kyes\.sqlite: key store not found \(only hra keys create makes a new one\)$/);
    assert.equal(existsSync(typo), false);
  });
});

describe('--json failures', () => {
  /** Every command path that has a --json option, from the registered commands themselves. */
  function jsonCommands(command: Command, path: string[] = []): string[][] {
    const own = command.options.some((option) => option.long === '--json') ? [path] : [];
    return [...own, ...command.commands.flatMap((sub) => jsonCommands(sub, [...path, sub.name()]))];
  }
  const program = new Command('hra');
  registerCommands(program);
  const paths = jsonCommands(program);

  it('finds the commands that take --json', () => {
    assert.ok(paths.length >= 10, paths.map((path) => path.join(' ')).join(', '));
  });

  for (const path of paths) {
    it(`hra ${path.join(' ')} --json, missing its inputs: one stderr line and {"ok": false, "error"} last on stdout`, () => {
      const run = runHra([...path, '--json']);
      assert.notEqual(run.status, 0);
      const lines = stderrLines(run);
      assert.equal(lines.length, 1, run.stderr);
      const failure = lastJsonLine(run);
      assert.equal(failure.ok, false);
      assert.equal(`hra: ${String(failure.error)}`, lines[0]);
    });
  }

  it('an invalid corpus lists every problem with its file, line, path and message', () => {
    const corpus = join(dir, 'broken-corpus');
    cpSync(join(ROOT, MINI_CORPUS), corpus, { recursive: true });
    const programs = join(corpus, 'programs/alpha.ndjson');
    writeFileSync(programs, `${readFileSync(programs, 'utf8')}{"id": "bad"}\n{"id": "worse"}\n`);
    const run = runHra(['validate', '--corpus', corpus, '--json']);
    assert.equal(run.status, 1);
    const failure = lastJsonLine(run);
    assert.equal(failure.ok, false);
    assert.match(String(failure.error), /^corpus is invalid: broken-corpus\/programs\/alpha\.ndjson:7 \$\.name: is required \(and \d+ more problems\)$/);
    const problems = failure.problems as Array<Record<string, unknown>>;
    assert.ok(problems.length >= 2);
    assert.deepEqual(problems[0], { file: 'broken-corpus/programs/alpha.ndjson', line: 7, path: '$.name', message: 'is required' });
    assert.ok(problems.some((problem) => problem.line === 8), 'the second bad row is listed too');
  });

  it('a failed verify carries its checks', () => {
    const text = join(dir, 'not-a-snapshot.sqlite');
    writeFileSync(text, 'plain text');
    const run = runHra(['verify', text, '--corpus', MINI_CORPUS, '--json']);
    assert.equal(run.status, 1);
    const failure = lastJsonLine(run);
    assert.equal(failure.ok, false);
    assert.match(String(failure.error), /^verify failed: format: /);
    assert.deepEqual((failure.checks as Array<{ check: string; ok: boolean }>).map(({ check, ok }) => ({ check, ok })), [{ check: 'format', ok: false }]);
  });
});

describe('counts', () => {
  it('validate reports the row count the loader reported, with the national rows beside it', () => {
    const run = runHra(['validate', '--corpus', 'corpus']);
    assert.equal(run.status, 0, run.stderr);
    const loaded = /validated (\d+) program rows in (\d+) city files/.exec(run.stderr);
    const summary = /^corpus is valid: \d+ cities, (\d+) program rows \((\d+) in (\d+) city files, (\d+) national\) in [\d.]+ s$/.exec(run.stdout.trim());
    assert.ok(loaded && summary, `${run.stderr}\n${run.stdout}`);
    assert.equal(summary[2], loaded[1]);
    assert.equal(summary[3], loaded[2]);
    assert.equal(Number(summary[1]), Number(summary[2]) + Number(summary[4]));
  });
});

describe('verify progress', () => {
  it('reports each check on stderr as it passes, and nothing but the result on stdout', () => {
    const run = runHra(['verify', snapshot, '--corpus', MINI_CORPUS]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'verified: format, integrity, content, revision, bytes\n');
    const passed = stderrLines(run).flatMap((line) => /^verify: (\w+) ok \([\d.]+ s\)$/.exec(line)?.[1] ?? []);
    assert.deepEqual(passed, ['format', 'integrity', 'content', 'revision', 'bytes']);
  });
});
