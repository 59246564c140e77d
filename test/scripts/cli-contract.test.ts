/**
 * The operator contract's promises for every subcommand, checked on the real CLI: a failure exits non-zero
 * with one stderr line naming the flag or file at fault; with `--json` the last stdout line is
 * `{"ok": false, "error": ...}`; `hra --version` prints package.json's version.
 */
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Command } from 'commander';
import { openKeyStore } from '../../gateway/keys/sqlite-key-store.ts';
import { registerCommands } from '../../scripts/commands/register-commands.ts';
import { buildTestSnapshot, MINI_CORPUS } from '../support/start-test-gateway.ts';
import { markQuotesChecked, writeLinkTestCorpus } from '../support/link-test-corpus.ts';
import { lastJsonLine, ROOT, runHra, stderrLines, type HraRun } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const dir = makeTempDir('hra-cli-contract-');
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
    ['build --out <a folder under a file>', () => ['build', '--corpus', MINI_CORPUS, '--out', join(aFile, 'sub')],
      /^hra: --out \S+a-file\.txt\/sub: \S+a-file\.txt exists and is not a directory$/, true],
    // Node's recursive mkdir loops forever on this path, deaf to SIGINT: the check must come first.
    ['build --out /proc/nope (a folder that cannot be created)', () => ['build', '--corpus', MINI_CORPUS, '--out', '/proc/nope/out'],
      /^hra: --out \/proc\/nope\/out: cannot create the output folder: ENOENT: no such file or directory, mkdir '\/proc\/nope'$/, true],
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

describe('every refusal of every command is one stderr line, whatever the message came from', () => {
  const emptyFile = join(dir, 'empty-file');
  const notJson = join(dir, 'not-json.json');
  const notSnapshot = join(dir, 'plain.sqlite');
  before(() => {
    writeFileSync(emptyFile, '');
    writeFileSync(notJson, 'not json\n');
    writeFileSync(notSnapshot, 'plain text\n');
  });
  // [command, args, the one stderr line]: one row per leaf command at least (the next test checks that).
  const cases: ReadonlyArray<[string, () => string[], RegExp]> = [
    ['validate', () => ['validate', '--corpus', aFile], /^hra: --corpus \S+a-file\.txt: is a file, not a corpus directory$/],
    ['digest', () => ['digest', '--corpus', missing], /^hra: --corpus \S+no-such-corpus: corpus directory not found$/],
    ['build', () => ['build', '--corpus', MINI_CORPUS, '--out', join(emptyFile, 'out')], /^hra: --out \S+: \S+empty-file exists and is not a directory$/],
    ['verify', () => ['verify', notSnapshot, '--corpus', MINI_CORPUS], /^hra: verify failed: \S+plain\.sqlite: format: /],
    ['prune', () => ['prune', '--out', aFile, '--keep', '2'], /^hra: --out \S+a-file\.txt: is a file, not a build output folder$/],
    ['synth', () => ['synth', '--seed', 'x', '--out', join(dir, 'synth-out')], /^hra: --seed/],
    ['changes detect', () => ['changes', 'detect', '--previous', join(dir, 'nope.sqlite'), '--corpus', MINI_CORPUS, '--at', '2026-01-01T00:00:00Z'], /^hra: --previous: cannot open \S+nope\.sqlite: /],
    ['links check', () => ['links', 'check', '--corpus', missing, '--dry-run'], /^hra: --corpus \S+no-such-corpus: corpus directory not found$/],
    ['links report', () => ['links', 'report', '--corpus', aFile], /^hra: --corpus \S+a-file\.txt: is a file, not a corpus directory$/],
    ['archive prune', () => ['archive', 'prune', '--archive', aFile, '--keep-weeks', '4'], /^hra: --archive \S+a-file\.txt: is a file, not a WARC archive folder$/],
    ['quotes check', () => ['quotes', 'check', '--page', dir, '--quote', 'up to $10,000'], /^hra: --page \S+: is a directory, not a page file$/],
    ['quotes replay', () => ['quotes', 'replay', '--corpus', MINI_CORPUS, '--archive', missing, '--verify'], /^hra: --archive \S+no-such-corpus: archive directory not found$/],
    ['rehearse', () => ['rehearse', '--out', aFile], /^hra: --out \S+a-file\.txt: is a file, not a folder$/],
    ['archive reindex', () => ['archive', 'reindex', '--archive', aFile], /^hra: --archive \S+a-file\.txt: is a file, not a WARC archive folder$/],
    ['audit sample', () => ['audit', 'sample', '--corpus', MINI_CORPUS, '--size', '5', '--seed', 's', '--out', aFile],
      /^hra: --out \S+a-file\.txt: already exists \(a filled worksheet is never overwritten; choose another file\)$/],
    ['audit publish', () => ['audit', 'publish', '--corpus', MINI_CORPUS, '--worksheet', join(dir, 'no-such.csv'), '--reviewer', 'A. Person'],
      /^hra: --worksheet \S+no-such\.csv\.draw\.json: the sample's draw file cannot be read \(ENOENT\); hra audit sample writes it beside the worksheet$/],
    ['reviews due', () => ['reviews', 'due', '--corpus', aFile], /^hra: --corpus \S+a-file\.txt: is a file, not a corpus directory$/],
    ['reviews run', () => ['reviews', 'run', '--corpus', MINI_CORPUS, '--endpoint', 'ftp://x/v1', '--model', 'm'], /^hra: --endpoint ftp:\/\/x\/v1: must be an http or https URL$/],
    ['reviews export', () => ['reviews', 'export', '--corpus', MINI_CORPUS, '--archive', missing, '--out', join(dir, 'worksheet.csv')],
      /^hra: --archive \S+no-such-corpus: WARC archive folder not found$/],
    ['reviews import', () => ['reviews', 'import', join(dir, 'no-such.csv'), '--corpus', MINI_CORPUS, '--reviewer', 'A. Person'], /^hra: \S+no-such\.csv: cannot be read: ENOENT$/],
    ['keys create', () => ['keys', 'create', '--keys', 'mysql://x@y/z', '--tier', 'nonprofit'],
      /^hra: --keys: unknown key store scheme "mysql:\/\/" \(postgres:\/\/ or postgresql:\/\/ for PostgreSQL, or the path of a SQLite file\)$/],
    ['keys list', () => ['keys', 'list', '--keys', 'postgress://hra:s3cret@127.0.0.1/hra'], /^hra: --keys: unknown key store scheme "postgress:\/\/" /],
    ['keys revoke', () => ['keys', 'revoke', '--keys', emptyFile, 'key_000000000000'],
      /^hra: --keys \S+empty-file: empty file, not a key store \(only hra keys create initialises one\)$/],
    ['keys rotate', () => ['keys', 'rotate', '--keys', keys, 'key_000000000000'], /^hra: no key with id "key_000000000000"$/],
    ['serve', () => ['serve', '--dataset', snapshot, '--keys', keys, '--port', '0', '--limits', notJson, '--log-level', 'silent'],
      /^hra: --limits: cannot read limits file \S+not-json\.json: .*not valid JSON$/],
    ['serve', () => ['serve', '--dataset', snapshot, '--keys', 'postgress://hra:s3cret@127.0.0.1/hra', '--port', '0', '--log-level', 'silent'],
      /^hra: --keys: unknown key store scheme "postgress:\/\/" /],
  ];
  /**
   * Progress lines (`corpus: read ...`) may come first on stderr; the refusal is the last line, the only
   * `hra: ` line, and whole: a message carrying a newline would leave its tail as the last line.
   */
  function assertRefusal(run: HraRun, message: RegExp): string {
    assert.equal(run.status, 1, run.stderr);
    const lines = stderrLines(run);
    assert.equal(lines.filter((line) => line.startsWith('hra: ')).length, 1, run.stderr);
    assert.match(lines.at(-1) ?? '', message, run.stderr);
    return lines.at(-1) ?? '';
  }
  for (const [name, args, message] of cases) {
    const shown = args().slice(name.split(' ').length).map((arg) => (isAbsolute(arg) ? `<tmp>/${basename(arg)}` : arg));
    it(`hra ${name} ${shown.join(' ')}`, () => {
      const line = assertRefusal(runHra(args()), message);
      assert.doesNotMatch(line, /s3cret/, 'a password in a URL is never printed');
    });
  }

  it('the table has a row for every command', () => {
    const leaves = (command: Command, path: string[] = []): string[] =>
      command.commands.length === 0 ? [path.join(' ')] : command.commands.flatMap((sub) => leaves(sub, [...path, sub.name()]));
    const program = new Command('hra');
    registerCommands(program);
    assert.deepEqual([...new Set(cases.map(([name]) => name))].sort(), leaves(program).sort());
  });

  it('keys create initialises an existing empty file as a new store (a touched or mktemp file)', () => {
    const touched = join(dir, 'touched-keys.sqlite');
    writeFileSync(touched, '');
    const run = runHra(['keys', 'create', '--keys', touched, '--tier', 'nonprofit', '--json']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /initialised key store \S+touched-keys\.sqlite/);
    assert.equal(runHra(['keys', 'list', '--keys', touched, '--json']).status, 0);
  });
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
      // rehearse needs no input: an --out that is a file is its refusal.
      const run = runHra([...path, ...(path.join(' ') === 'rehearse' ? ['--out', aFile] : []), '--json']);
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
    // The corpus lies outside the working directory, so its files are named by their absolute paths.
    assert.equal(String(failure.error).startsWith(`corpus is invalid: ${corpus}/programs/alpha.ndjson:7 $.name: is required (and `), true, String(failure.error));
    const problems = failure.problems as Array<Record<string, unknown>>;
    assert.ok(problems.length >= 2);
    assert.deepEqual(problems[0], { file: `${corpus}/programs/alpha.ndjson`, line: 7, path: '$.name', message: 'is required' });
    assert.ok(problems.some((problem) => problem.line === 8), 'the second bad row is listed too');
  });

  it('validate names files as they open from where it ran, the first problem first', () => {
    const corpus = join(dir, 'named-corpus');
    cpSync(join(ROOT, MINI_CORPUS), corpus, { recursive: true });
    const programs = join(corpus, 'programs/alpha.ndjson');
    writeFileSync(programs, `${readFileSync(programs, 'utf8')}{"id": "bad"}\n`);
    const cities = join(corpus, 'cities.ndjson');
    writeFileSync(cities, `${readFileSync(cities, 'utf8')}{"slug": 7, "name": "Seven", "state": "Ohio", "stateAbbr": "OH", "status": "live"}\n`);
    const cityLine = readFileSync(cities, 'utf8').trimEnd().split('\n').length;
    const cases: Array<{ cwd: string; flag: string; shown: string }> = [
      { cwd: dir, flag: 'named-corpus', shown: 'named-corpus' },
      { cwd: dir, flag: './named-corpus/', shown: './named-corpus' },
      { cwd: corpus, flag: '.', shown: '.' },
      { cwd: join(corpus, 'programs'), flag: '..', shown: '..' },
      { cwd: dir, flag: corpus, shown: 'named-corpus' },
      { cwd: ROOT, flag: corpus, shown: corpus },
    ];
    for (const { cwd, flag, shown } of cases) {
      const run = runHra(['validate', '--corpus', flag], { cwd });
      assert.equal(run.status, 1, run.stderr);
      const lines = stderrLines(run).filter((line) => !line.startsWith('corpus: '));
      const first = `${shown}/cities.ndjson:${cityLine} $.slug: must be string`;
      assert.equal(lines[0], first, `${flag} from ${cwd}: ${run.stderr}`);
      assert.ok(lines.includes(`${shown}/programs/alpha.ndjson:7 $.name: is required`), run.stderr);
      assert.equal(lines.at(-1)?.startsWith(`hra: corpus is invalid: ${first} (and `), true, run.stderr);
      // Each file named opens from where the command ran.
      assert.ok(existsSync(resolve(cwd, `${shown}/cities.ndjson`)), `${shown}/cities.ndjson from ${cwd}`);
    }
  });

  it('validate lists at most 100 problems on stderr, then how many more; --json lists every one', () => {
    const corpus = join(dir, 'very-broken-corpus');
    cpSync(join(ROOT, MINI_CORPUS), corpus, { recursive: true });
    const programs = join(corpus, 'programs/alpha.ndjson');
    const bad = Array.from({ length: 150 }, (_, index) => `{"id": "bad-${index}"}\n`).join('');
    writeFileSync(programs, `${readFileSync(programs, 'utf8')}${bad}`);
    const run = runHra(['validate', '--corpus', corpus, '--json']);
    assert.equal(run.status, 1);
    const total = (lastJsonLine(run).problems as unknown[]).length;
    assert.ok(total > 150, `${total} problems`);
    const lines = stderrLines(run).filter((line) => !line.startsWith('corpus: '));
    assert.equal(lines.length, 100 + 2, run.stderr.slice(0, 500));
    // The first problem heads the list too: the list is the corpus's order, the last line its summary.
    assert.equal(lines[0], `${corpus}/programs/alpha.ndjson:7 $.name: is required`);
    assert.equal(lines.at(-2), `... and ${total - 100} more problems not listed here (--json lists every one)`);
    assert.match(lines.at(-1) ?? '', new RegExp(`^hra: corpus is invalid: .* \\(and ${total - 1} more problems\\)$`));
  });

  it('a failed verify carries its checks', () => {
    const text = join(dir, 'not-a-snapshot.sqlite');
    writeFileSync(text, 'plain text');
    const run = runHra(['verify', text, '--corpus', MINI_CORPUS, '--json']);
    assert.equal(run.status, 1);
    const failure = lastJsonLine(run);
    assert.equal(failure.ok, false);
    assert.equal(String(failure.error).startsWith(`verify failed: ${text}: format: `), true, String(failure.error));
    assert.deepEqual((failure.checks as Array<{ check: string; ok: boolean }>).map(({ check, ok }) => ({ check, ok })), [{ check: 'format', ok: false }]);
  });
});

describe('counts', () => {
  it('validate reports the row count the loader reported, with the national rows beside it', () => {
    const run = runHra(['validate', '--corpus', 'corpus']);
    assert.equal(run.status, 0, run.stderr);
    const loaded = /validated (\d+) program rows in (\d+) city files/.exec(run.stderr);
    const [first, second] = run.stdout.trim().split('\n');
    const summary = /^corpus is valid: \d+ cities, (\d+) program rows \((\d+) in (\d+) city files, (\d+) national\) in [\d.]+ s$/.exec(first ?? '');
    assert.ok(loaded && summary, `${run.stderr}\n${run.stdout}`);
    assert.equal(summary[2], loaded[1]);
    assert.equal(summary[3], loaded[2]);
    assert.equal(Number(summary[1]), Number(summary[2]) + Number(summary[4]));
    // The demo corpus has no internet behind it: every served amount quote still rests on its hand-typed flag.
    assert.match(second ?? '', /^amount quotes served: 30; 0 decided by a quote check, 30 never checked mechanically \(their hand-typed quoteFoundInPage is served; hra links check checks them\)$/);
  });

  it('validate counts the amount quotes a quote check decided and those still hand-typed', () => {
    const dir = writeLinkTestCorpus(join(makeTempDir('hra-validate-quotes-'), 'corpus'));
    markQuotesChecked(dir, '2026-11-19'); // three inconclusive checks: nothing decided yet
    const count = () => {
      const summary = lastJsonLine(runHra(['validate', '--corpus', dir, '--json'])) as Record<string, unknown>;
      return [summary.amountQuotes, summary.quotesChecked, summary.quotesHandTyped];
    };
    assert.deepEqual(count(), [3, 0, 3]);
    const file = join(dir, 'evidence/quote-checks.ndjson');
    const { reason: _reason, ...inconclusive } = JSON.parse(readFileSync(file, 'utf8').split('\n')[0] ?? '{}') as Record<string, unknown>;
    writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify({ ...inconclusive, outcome: 'found', textLength: 10, textSha256: 'd'.repeat(64) })}\n`);
    assert.deepEqual(count(), [3, 1, 2]);
  });
});

describe('a manifest asOf older than the evidence', () => {
  it('is named by every command that loads the corpus, since review staleness is served counted from it', () => {
    const corpus = join(dir, 'lagging-corpus');
    cpSync(join(ROOT, MINI_CORPUS), corpus, { recursive: true });
    const checks = join(corpus, 'evidence/link-checks.ndjson');
    writeFileSync(checks, `${readFileSync(checks, 'utf8')}{"url": "https://alpha.example.org/roof", "checkedAt": "2026-12-01", "outcome": "live", "httpStatus": 200, "pageClass": "program"}\n`);
    for (const command of ['validate', 'digest']) {
      const run = runHra([command, '--corpus', corpus]);
      assert.equal(run.status, 0, run.stderr);
      assert.ok(run.stderr.includes(`corpus: warning: ${corpus}/manifest.json asOf 2026-11-16 is older than evidence of 2026-12-01 (evidence/link-checks.ndjson)`), run.stderr);
    }
    const fine = runHra(['validate', '--corpus', MINI_CORPUS]);
    assert.doesNotMatch(fine.stderr, /warning/);
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
