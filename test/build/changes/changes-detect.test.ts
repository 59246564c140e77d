import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { formatCorpusLine } from '../../../build/corpus/format-corpus-line.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { buildAndPublish } from '../../../build/snapshot/publish-snapshot.ts';
import { detectChanges } from '../../../build/changes/detect-changes.ts';
import { writeFormat2Copy, writeFormat3Copy } from '../../support/format-2-snapshot.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const work = makeTempDir('hra-changes-detect-');
const corpus = join(work, 'corpus');
const log = join(corpus, 'changes.ndjson');
const at = '2026-11-16T06:00:00Z';
let previous = '';

function hra(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', 'changes', 'detect', ...args], { cwd: root, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Rewrites an NDJSON corpus file row by row. */
function editRows(relative: string, edit: (rows: Array<Record<string, unknown>>) => Array<Record<string, unknown>>): void {
  const file = join(corpus, relative);
  const rows = readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
  writeFileSync(file, edit(rows).map((row) => JSON.stringify(row)).join('\n') + '\n');
}

const patch = (id: string, fields: Record<string, unknown>) => (row: Record<string, unknown>) => (row.id === id ? { ...row, ...fields } : row);

const expected = [
  { city: 'alpha', programId: 'a-furnace', programName: 'Alpha Furnace Loan', type: 'status-changed', fromStatus: 'waitlist', toStatus: 'available' },
  // Quarantined, so withheld from every response: detected all the same, the feed hides it at build time.
  { city: 'alpha', programId: 'a-quar', programName: 'Alpha Old Program', type: 'status-changed', fromStatus: 'available', toStatus: 'closed' },
  { city: 'alpha', programId: 'a-ramp', programName: 'Alpha Accessibility Ramps', type: 'program-removed', fromStatus: 'closed', toStatus: null },
  { city: 'alpha', programId: 'a-roof', programName: 'Alpha Roof Repair Grant', type: 'status-changed', fromStatus: 'available', toStatus: 'closed' },
  { city: 'alpha', programId: 'a-roof', programName: 'Alpha Roof Repair Grant', type: 'amount-changed', fromStatus: 'available', toStatus: 'closed', fromAmount: 15000, toAmount: 20000 },
  { city: 'beta', programId: 'b-new', programName: 'Beta Paint Program', type: 'program-added', fromStatus: null, toStatus: 'available' },
  { city: 'beta', programId: 'b-weather', programName: 'Beta Weatherization', type: 'link-status-changed', fromStatus: 'live', toStatus: 'dead' },
  { city: 'gamma', programId: 'g-grant', programName: 'Gamma Home Repair Grant', type: 'amount-changed', fromStatus: 'available', toStatus: 'available', fromAmount: 7500, toAmount: 9000 },
].map((event, index) => ({ id: 8 + index, detectedAt: at, ...event }));

describe('hra changes detect', () => {
  before(() => {
    cpSync(join(root, 'test/fixtures/mini-corpus'), corpus, { recursive: true });
    previous = buildAndPublish(loadCorpus(corpus), join(work, 'dist')).file;
    editRows('programs/alpha.ndjson', (rows) => rows
      .filter((row) => row.id !== 'a-ramp')
      .map(patch('a-furnace', { fundingStatus: 'available' }))
      .map(patch('a-roof', { fundingStatus: 'closed', maxAmount: 20000 }))
      .map(patch('a-quar', { fundingStatus: 'closed' })));
    editRows('programs/beta.ndjson', (rows) => [...rows, {
      id: 'b-new', name: 'Beta Paint Program', source: 'Beta Community Action', eligibilityType: ['homeowner'],
      fundingStatus: 'available', url: 'https://beta.example.org/paint', category: 'home-repair',
    }]);
    editRows('programs/gamma.ndjson', (rows) => rows.map(patch('g-grant', { maxAmount: 9000 })));
    appendFileSync(join(corpus, 'evidence/link-checks.ndjson'), `${JSON.stringify({ url: 'https://beta.example.org/wx', checkedAt: '2026-11-15', outcome: 'dead', httpStatus: 404 })}\n`);
  });

  it('appends exactly the detected events, numbered from 8, detected at --at', () => {
    const before = readFileSync(log, 'utf8');
    const run = hra('--previous', previous, '--corpus', corpus, '--at', at, '--json');
    assert.equal(run.status, 0, run.stderr);
    // One count (stdout's), and a reminder that the published snapshot no longer matches the corpus.
    assert.doesNotMatch(run.stderr, /found \d+ change/);
    assert.match(run.stderr, /^changes: the corpus now differs from every published snapshot: build and publish it \(hra build --corpus .* --out <dir>\)$/m);
    assert.deepEqual(JSON.parse(run.stdout.trimEnd().split('\n').at(-1) ?? ''), {
      ok: true, added: 8, firstId: 8, lastId: 15,
      byType: { 'program-added': 1, 'program-removed': 1, 'status-changed': 3, 'amount-changed': 2, 'link-status-changed': 1 },
    });
    const after = readFileSync(log, 'utf8');
    assert.ok(after.startsWith(before), 'existing lines are kept byte for byte');
    assert.equal(after.slice(before.length), expected.map((event) => `${formatCorpusLine(event)}\n`).join(''));
    assert.match(after.slice(before.length), /^\{"id": 8, "detectedAt": "/, 'in the spaced style of the hand-written lines');
  });

  it('adds nothing when run again, even at another time', () => {
    const before = readFileSync(log, 'utf8');
    for (const again of [at, '2026-11-16T07:30:00+01:00']) {
      const run = hra('--previous', previous, '--corpus', corpus, '--at', again);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, 'no new changes: the 8 changes since the previous snapshot are already in the change log\n');
      assert.doesNotMatch(run.stderr, /build and publish/);
    }
    assert.equal(readFileSync(log, 'utf8'), before);
  });

  /** The changes detected against a previous snapshot file, read as `hra changes detect` reads it. */
  const detectFrom = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return detectChanges(db, loadCorpus(corpus));
    } finally {
      db.close();
    }
  };

  it('reads a previous snapshot of format 2, where withheld records shared the programs table', () => {
    const format2 = writeFormat2Copy(previous, join(work, 'format-2.sqlite'));
    const fromFormat2 = detectFrom(format2);
    assert.deepEqual(fromFormat2, detectFrom(previous));
    assert.ok(fromFormat2.some((change) => change.programId === 'a-quar'), 'the withheld record is compared too');
    const run = hra('--previous', format2, '--corpus', corpus, '--at', at);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'no new changes: the 8 changes since the previous snapshot are already in the change log\n', 'the events are the ones the format-4 run appended');
  });

  it('reads a previous snapshot of format 3, where served records had their own copy of their bytes', () => {
    const format3 = writeFormat3Copy(previous, join(work, 'format-3.sqlite'));
    const fromFormat3 = detectFrom(format3);
    assert.deepEqual(fromFormat3, detectFrom(previous));
    assert.ok(fromFormat3.some((change) => change.programId === 'a-quar'), 'the withheld record is compared too');
    assert.ok(fromFormat3.length > 0, 'the corpus differs from the previous snapshot');
    const run = hra('--previous', format3, '--corpus', corpus, '--at', at);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'no new changes: the 8 changes since the previous snapshot are already in the change log\n');
  });

  it('leaves a corpus that still loads', () => {
    const loaded = loadCorpus(corpus);
    assert.deepEqual(loaded.changes.map((event) => event.id), [1, 2, 3, 4, 5, 6, 7, ...expected.map((event) => event.id)]);
  });

  const refusals: Array<{ name: string; args: () => string[]; message: RegExp }> = [
    { name: 'an --at without a timezone', args: () => ['--previous', previous, '--at', '2026-11-16T06:00:00'], message: /^hra: --at "2026-11-16T06:00:00": must be an ISO 8601 date-time/ },
    { name: 'an --at that is a bare date', args: () => ['--previous', previous, '--at', '2026-11-16'], message: /^hra: --at / },
    { name: 'an --at that is not a date', args: () => ['--previous', previous, '--at', 'monday'], message: /^hra: --at / },
    { name: 'a --previous that is not a snapshot', args: () => ['--previous', join(corpus, 'manifest.json'), '--at', at], message: /^hra: --previous .*manifest\.json: / },
    { name: 'a --previous that does not exist', args: () => ['--previous', join(work, 'missing.sqlite'), '--at', at], message: /^hra: --previous: cannot open / },
    {
      name: 'a --previous of an unknown format version',
      args: () => ['--previous', writeFormat2Copy(previous, join(work, 'format-1.sqlite'), 1), '--at', at],
      message: /^hra: --previous .*format-1\.sqlite: snapshot format version 1 is not the supported 2, 3, 4 or 5$/,
    },
  ];
  for (const { name, args, message } of refusals) {
    it(`refuses ${name} with one stderr line and leaves the log alone`, () => {
      const before = readFileSync(log, 'utf8');
      const run = hra(...args(), '--corpus', corpus);
      assert.notEqual(run.status, 0);
      assert.equal(run.stdout, '');
      const lines = run.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0] ?? '', message);
      assert.equal(readFileSync(log, 'utf8'), before);
    });
  }

  it('refuses an --at earlier than the latest logged event, after the corpus is read, leaving the log alone', () => {
    const before = readFileSync(log, 'utf8');
    const run = hra('--previous', previous, '--corpus', corpus, '--at', '2026-11-16T05:59:59Z');
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    const lines = run.stderr.trimEnd().split('\n');
    assert.match(lines.at(-1) ?? '', /^hra: --at 2026-11-16T05:59:59Z is earlier than the change log's latest event \(id 15, detected 2026-11-16T06:00:00Z\); .*--allow-backdated$/);
    assert.deepEqual(lines.slice(0, -1).filter((line) => !line.startsWith('corpus: ')), [], 'only the loader\'s progress precedes it');
    assert.equal(readFileSync(log, 'utf8'), before);
  });

  it('accepts an earlier --at with --allow-backdated', () => {
    const run = hra('--previous', previous, '--corpus', corpus, '--at', '2026-11-01T00:00:00Z', '--allow-backdated');
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^no new changes: /);
  });

  it('counts one added event in the singular', () => {
    editRows('programs/gamma.ndjson', (rows) => rows.map(patch('g-grant', { maxAmount: 9500 })));
    const run = hra('--previous', previous, '--corpus', corpus, '--at', '2026-11-23T06:00:00Z');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'added 1 change event (id 16)\n');
  });
});
