/**
 * `hra rehearse` end to end (issue 42 item 1): the whole weekly workflow and the auditor's order, offline, in
 * a fresh folder, on a copy of the demo corpus whose cited URLs play on the loopback site. The demo corpus is
 * not touched; what it writes is marked as rehearsal data and `npm start` refuses to serve it; and the
 * auditor's order exactly as docs/auditors.md writes it passes on its output.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { visitCitations } from '../../build/links/visit-citations.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { lastJsonLine, lastLine, ROOT, runHra, runHraAsync, type HraRun } from '../support/run-hra.ts';

const work = makeTempDir('hra-rehearse-');
const out = join(work, 'rehearsal');

/** SHA-256 over every file of `dir` with its relative path, so any change to the folder changes it. */
function treeDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(`${path.slice(dir.length)}\0`).update(readFileSync(path));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

const STEPS = [
  'corpus', 'site', 'last week', 'links check', 'links report', 'reviews due', 'reviews run', 'validate', 'changes detect', 'build', 'serve',
  'auditor: digest', 'auditor: verify', 'auditor: quotes replay',
];

describe('hra rehearse', () => {
  let run: HraRun;
  let demoBefore: string;
  before(async () => {
    demoBefore = treeDigest(join(ROOT, 'corpus'));
    run = await runHraAsync(['rehearse', '--out', out, '--json']);
  });

  it('runs every step, one line each, and leaves the demo corpus as it was', () => {
    assert.equal(run.status, 0, run.stderr);
    const summary = lastJsonLine(run);
    assert.deepEqual([summary.ok, summary.dir, summary.kept, summary.steps], [true, out, true, STEPS]);
    assert.match(String(summary.revision), /^gm1-[0-9a-f]{64}$/);
    // --json: the step lines go to stderr, each once, in order.
    const named = run.stderr.split('\n').map((line) => STEPS.find((name) => line.startsWith(`${name}: `))).filter((name) => name !== undefined);
    assert.deepEqual(named, STEPS);
    assert.match(run.stderr, /^links check: checked \d+ URLs .*dead 1.*not-found 2/m);
    assert.match(run.stderr, /^auditor: quotes replay: (\d+) verdicts derived again from the archive: \1 match, 0 differ/m);
    assert.equal(run.stdout.trimEnd().split('\n').length, 1, 'stdout is the JSON summary alone');
    assert.equal(treeDigest(join(ROOT, 'corpus')), demoBefore, 'the demo corpus is not touched');
  });

  it('reviews due records from their archived pages through the scripted loopback model, bound to page and exchange', () => {
    assert.match(run.stderr, /^reviews due: [1-9]\d* records due a source review at /m);
    assert.match(run.stderr, /^reviews run: .*: [1-9]\d* reviews appended \([1-9]\d* with an amount quote found in the page\)/m);
    const lines = readFileSync(join(out, 'corpus/evidence/source-reviews.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const made = lines.filter((line) => (line.reviewer as { kind?: string } | undefined)?.kind === 'model');
    assert.ok(made.length > 0, 'model reviews appended');
    for (const line of made) {
      assert.equal((line.reviewer as { model: string }).model, 'rehearsal-scripted-rule');
      assert.match(String(line.warcRecordId), /^<urn:uuid:/);
      assert.match(String((line.exchange as { responseRecordId: string }).responseRecordId), /^<urn:uuid:/);
    }
  });

  it('offers the reviewer only whole archived pages: a HEAD answer or a page read to its first heading needs a links check', () => {
    const dry = runHra(['reviews', 'run', '--corpus', join(out, 'corpus'), '--archive', join(out, 'archive'), '--endpoint', 'http://127.0.0.1:9/v1',
      '--model', 'none', '--at', '2026-12-31T06:00:00Z', '--dry-run', '--json']);
    assert.equal(dry.status, 0, dry.stderr);
    const summary = lastJsonLine(dry);
    assert.equal(summary.noText, 0, 'no archived prefix or empty HEAD body is offered as a page');
    assert.ok(Number(summary.needsLinksCheck) > 0);
    assert.ok(Number(summary.planned) > 0);
  });

  it('cites only made-up .test hosts, and marks what it wrote as rehearsal data', () => {
    const corpus = loadCorpus(join(out, 'corpus'));
    const hosts = new Set<string>();
    visitCitations(corpus, ({ url }) => hosts.add(new URL(url).hostname));
    assert.ok(hosts.size > 50);
    for (const host of hosts) assert.match(host, /\.test$/, host);
    assert.match(corpus.manifest.dataset, /^rehearsal-/);
    assert.match(readFileSync(join(out, 'REHEARSAL.md'), 'utf8'), /written by `hra rehearse`/);
    assert.ok(existsSync(join(out, 'archive', 'index.sqlite')));
  });

  it('passes the auditor\'s order as docs/auditors.md writes it, run in the rehearsal folder', () => {
    const auditors = readFileSync(join(ROOT, 'docs/auditors.md'), 'utf8');
    const block = [...auditors.matchAll(/```sh\n([^`]*?)\n```/g)].map((match) => match[1] as string).find((text) => text.startsWith('npx hra digest') && text.includes('quotes replay'));
    assert.ok(block, 'docs/auditors.md holds the three-step order');
    const commands = block.split('\n').map((line) => line.replace(/\s+#.*$/, '').replace(/^npx hra /, '').split(/\s+/));
    assert.equal(commands.length, 3);
    for (const args of commands) {
      const audit = runHra(args, { cwd: out });
      assert.equal(audit.status, 0, `hra ${args.join(' ')}: ${audit.stderr}`);
    }
  });

  it('is refused by npm start, in its folder and through HRA_DATASET, before any key is issued', () => {
    for (const [cwd, env] of [[out, { HRA_PORT: '0' }], [work, { HRA_PORT: '0', HRA_DATASET: join(out, 'dist', 'current.sqlite') }]] as const) {
      const refused = runHra([], { cwd, env, script: 'scripts/start.ts' });
      assert.notEqual(refused.status, 0);
      assert.match(lastLine(refused.stderr), /^hra: (HRA_DATASET|default of --dataset) \S+current\.sqlite: holds rehearsal data \(dataset rehearsal-home-repair-assistance-demo, written by hra rehearse\); npm start never serves it/);
    }
    assert.equal(existsSync(join(work, 'dist')), false, 'nothing written beside it');
  });

  it('refuses an --out that holds anything, writing nothing', () => {
    const full = join(work, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'keep.txt'), 'mine');
    const refused = runHra(['rehearse', '--out', full]);
    assert.notEqual(refused.status, 0);
    assert.match(lastLine(refused.stderr), /^hra: --out \S+full: must be a new or empty folder \(a rehearsal never writes over anything\)$/);
    assert.deepEqual(readdirSync(full), ['keep.txt']);
  });
});
