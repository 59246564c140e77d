/** The build: reproducible bytes, a revision that binds every input kind and nothing else, verify, atomic publish. */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { computeEnrichmentDigest } from '../../../build/revision/enrichment-digest.ts';
import { computeRevision } from '../../../build/revision/compute-revision.ts';
import { computeContentDigest } from '../../../build/snapshot/content-digest.ts';
import { buildAndPublish } from '../../../build/snapshot/publish-snapshot.ts';
import { checksumFileOf } from '../../../build/snapshot/snapshot-checksum.ts';
import { segmentsFileOf } from '../../../build/snapshot/snapshot-segments.ts';
import { sha256File, verifySnapshot } from '../../../build/snapshot/verify-snapshot.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const scratch = makeTempDir('hra-build-test-');
after(() => rmSync(scratch, { recursive: true, force: true }));
let copies = 0;

/** A private copy of a corpus to mutate. */
function copyCorpus(source = 'test/fixtures/mini-corpus'): string {
  copies += 1;
  const dir = join(scratch, `corpus-${copies}`);
  cpSync(source, dir, { recursive: true });
  return dir;
}

const revisionOf = (dir: string) => computeRevision(loadCorpus(dir)).revision;

/** The content digest of a snapshot file's rows, or the error reading them. */
function contentDigestOf(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return computeContentDigest(db);
  } catch (error) {
    return `unreadable: ${(error as Error).message}`;
  } finally {
    db.close();
  }
}

function hra(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', ...args], { encoding: 'utf8' });
}

/** Appends one character inside the first string value of line `line`, keeping the file valid. */
function touchLine(file: string, line: number, key: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const row = JSON.parse(lines[line - 1] ?? '') as Record<string, unknown>;
  row[key] = `${String(row[key])}x`;
  lines[line - 1] = JSON.stringify(row);
  writeFileSync(file, lines.join('\n'));
}

describe('build reproducibility', () => {
  it('two builds of the demo corpus are byte-identical, and digest agrees with build', () => {
    const first = hra('build', '--corpus', 'corpus', '--out', join(scratch, 'out-a'));
    const second = hra('build', '--corpus', 'corpus', '--out', join(scratch, 'out-b'));
    assert.equal(first.status, 0, first.stderr);
    assert.equal(second.status, 0, second.stderr);
    const revision = first.stdout.trim().split('\n').at(-1) ?? '';
    assert.match(revision, /^gm1-[a-f0-9]{64}$/);
    assert.equal(second.stdout.trim().split('\n').at(-1), revision);
    assert.equal(sha256File(join(scratch, 'out-a', `${revision}.sqlite`)), sha256File(join(scratch, 'out-b', `${revision}.sqlite`)));
    const digest = hra('digest', '--corpus', 'corpus');
    assert.equal(digest.status, 0, digest.stderr);
    assert.equal(digest.stdout.trim(), revision);
    assert.equal(readlinkSync(join(scratch, 'out-a', 'current.sqlite')), `${revision}.sqlite`);
  });
});

describe('the revision', () => {
  const base = revisionOf('test/fixtures/mini-corpus');
  const mutations: Array<[string, (dir: string) => void]> = [
    ['manifest', (dir) => writeFileSync(join(dir, 'manifest.json'), readFileSync(join(dir, 'manifest.json'), 'utf8').replace('"mini-fixture"', '"mini-fixturf"'))],
    ['a live city', (dir) => touchLine(join(dir, 'cities.ndjson'), 1, 'name')],
    ['a live program row', (dir) => touchLine(join(dir, 'programs/alpha.ndjson'), 1, 'description')],
    ['a federal record', (dir) => touchLine(join(dir, 'national.ndjson'), 1, 'name')],
    ['an adjacent-scope rule', (dir) => touchLine(join(dir, 'policy/adjacent-scope.ndjson'), 1, 'reason')],
    ['the quarantine list', (dir) => touchLine(join(dir, 'policy/quarantine.ndjson'), 1, 'reason')],
    ['a link check', (dir) => writeFileSync(join(dir, 'evidence/link-checks.ndjson'), readFileSync(join(dir, 'evidence/link-checks.ndjson'), 'utf8').replace('"httpStatus": 404', '"httpStatus": 410'))],
    ['a source review', (dir) => touchLine(join(dir, 'evidence/source-reviews.ndjson'), 1, 'amountQuote')],
    ['a correction', (dir) => touchLine(join(dir, 'corrections.ndjson'), 1, 'reason')],
    ['the vocabularies', (dir) => writeFileSync(join(dir, 'vocabularies.json'), readFileSync(join(dir, 'vocabularies.json'), 'utf8').replace('"ramp": "accessibility"', '"ramps": "accessibility"'))],
    ['the change log', (dir) => touchLine(join(dir, 'changes.ndjson'), 1, 'programName')],
    ['a report artifact', (dir) => writeFileSync(join(dir, 'reports/fact-audit-latest.json'), readFileSync(join(dir, 'reports/fact-audit-latest.json'), 'utf8').replace('"method": "fixture"', '"method": "fixturE"'))],
  ];
  for (const [kind, mutate] of mutations) {
    it(`changes when ${kind} changes by one character`, () => {
      const dir = copyCorpus();
      mutate(dir);
      assert.notEqual(revisionOf(dir), base);
    });
  }

  it('changes when a derivation rule changes (the enrichment implementation is bound)', () => {
    const buildRoot = join(scratch, 'build-copy');
    cpSync('build', buildRoot, { recursive: true });
    const before = computeEnrichmentDigest(buildRoot).digest;
    assert.equal(before, computeEnrichmentDigest().digest);
    const rule = join(buildRoot, 'derive', 'income-tier.ts');
    writeFileSync(rule, `${readFileSync(rule, 'utf8')}\n// a changed rule\n`);
    assert.notEqual(computeEnrichmentDigest(buildRoot).digest, before);
  });

  it('ignores line order, whitespace, key order and line endings', () => {
    const dir = copyCorpus();
    const reorder = (file: string) => {
      const rows = readFileSync(join(dir, file), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      const reversed = rows.reverse().map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).reverse()), null, 0).replace(/":/g, '": '));
      writeFileSync(join(dir, file), `${reversed.join('\r\n')}\r\n`);
    };
    for (const file of ['cities.ndjson', 'programs/alpha.ndjson', 'evidence/link-checks.ndjson', 'evidence/source-reviews.ndjson', 'corrections.ndjson', 'policy/adjacent-scope.ndjson']) reorder(file);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(Object.fromEntries(Object.entries(manifest).reverse())));
    assert.equal(revisionOf(dir), base);
  });

  it('is not changed by a city that is not live', () => {
    const dir = copyCorpus();
    touchLine(join(dir, 'programs/delta.ndjson'), 1, 'name');
    assert.equal(revisionOf(dir), base);
  });
});

describe('hra verify', () => {
  const out = join(scratch, 'verify-out');
  const published = buildAndPublish(loadCorpus('test/fixtures/mini-corpus'), out);

  it('passes on a fresh build', () => {
    const result = hra('verify', published.file, '--corpus', 'test/fixtures/mini-corpus');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /verified: format, integrity, content, revision, bytes/);
    assert.ok(verifySnapshot(published.file, loadCorpus('test/fixtures/mini-corpus')).every((check) => check.ok));
  });

  it('fails, naming the check, on a copy with one byte flipped', () => {
    const original = readFileSync(published.file);
    const flipped = join(scratch, 'flipped.sqlite');
    // Flip a byte of a served record's name where SQLite reads it, not in a stale copy that a page split
    // left in a page's free space (which no check can see, and none needs to): the first occurrence
    // whose flip changes the stored content.
    const needle = Buffer.from('Alpha Roof Repair Grant');
    let damaged = false;
    for (let at = original.indexOf(needle); at !== -1 && !damaged; at = original.indexOf(needle, at + 1)) {
      const bytes = Buffer.from(original);
      bytes[at] = bytes[at]! ^ 0x01;
      writeFileSync(flipped, bytes);
      damaged = contentDigestOf(flipped) !== contentDigestOf(published.file);
    }
    assert.ok(damaged, 'a flip that damages served content');
    const result = hra('verify', flipped, '--corpus', 'test/fixtures/mini-corpus');
    assert.notEqual(result.status, 0);
    const lines = result.stderr.trim().split('\n');
    assert.match(lines.at(-1) ?? '', new RegExp(`^hra: verify failed: ${flipped}: (integrity|content): `));
  });

  it('fails the revision check against a corpus with one field changed', () => {
    const dir = copyCorpus();
    touchLine(join(dir, 'programs/beta.ndjson'), 1, 'name');
    const result = hra('verify', published.file, '--corpus', dir);
    assert.notEqual(result.status, 0);
    assert.match(result.stderr.trim().split('\n').at(-1) ?? '', new RegExp(`^hra: verify failed: ${published.file}: revision: corpus digests to gm1-`));
  });

  it('fails the format check on a file that is not a snapshot', () => {
    const other = join(scratch, 'not-a-snapshot.sqlite');
    writeFileSync(other, 'plain text, not SQLite');
    const result = hra('verify', other, '--corpus', 'test/fixtures/mini-corpus');
    assert.notEqual(result.status, 0);
    assert.match(result.stderr.trim().split('\n').at(-1) ?? '', new RegExp(`^hra: verify failed: ${other}: format: `));
  });
});

describe('publishing', () => {
  it('a failed build writes nothing and leaves current.sqlite untouched', () => {
    const out = join(scratch, 'publish-out');
    const good = hra('build', '--corpus', 'test/fixtures/mini-corpus', '--out', out);
    assert.equal(good.status, 0, good.stderr);
    const before = readdirSync(out).sort();
    const target = readlinkSync(join(out, 'current.sqlite'));
    const broken = copyCorpus();
    writeFileSync(join(broken, 'programs/alpha.ndjson'), `${readFileSync(join(broken, 'programs/alpha.ndjson'), 'utf8')}{"id": "bad"}\n`);
    const failed = hra('build', '--corpus', broken, '--out', out);
    assert.notEqual(failed.status, 0);
    assert.equal(failed.stdout, '');
    assert.match(failed.stderr.trim().split('\n').at(-1) ?? '', /^hra: corpus is invalid: .*programs\/alpha\.ndjson:7 \$\.name: is required/);
    assert.deepEqual(readdirSync(out).sort(), before);
    assert.equal(readlinkSync(join(out, 'current.sqlite')), target);
  });

  it('a new revision is published beside the old one and current.sqlite follows it', () => {
    const out = join(scratch, 'publish-two');
    const first = buildAndPublish(loadCorpus('test/fixtures/mini-corpus'), out);
    const dir = copyCorpus();
    touchLine(join(dir, 'programs/gamma.ndjson'), 1, 'name');
    const second = buildAndPublish(loadCorpus(dir), out);
    assert.notEqual(first.revision, second.revision);
    assert.ok(existsSync(first.file));
    assert.equal(readlinkSync(join(out, 'current.sqlite')), `${second.revision}.sqlite`);
    assert.deepEqual(readdirSync(out).filter((name) => name.startsWith('.')), [], 'no temporary files left');
  });
  it('publishes the snapshot and its .sha256 and .segments read-only (0444), and a rebuild of the revision replaces them by rename', () => {
    const out = join(scratch, 'publish-read-only');
    const first = buildAndPublish(loadCorpus('test/fixtures/mini-corpus'), out);
    const files = [first.file, checksumFileOf(first.file), segmentsFileOf(first.file)];
    const modes = () => files.map((file) => `${file.slice(out.length + 1)} ${(statSync(file).mode & 0o777).toString(8)}`);
    assert.deepEqual(modes(), files.map((file) => `${file.slice(out.length + 1)} 444`));
    const inode = statSync(first.file).ino;
    const again = buildAndPublish(loadCorpus('test/fixtures/mini-corpus'), out);
    assert.equal(again.file, first.file);
    assert.notEqual(statSync(first.file).ino, inode, 'a new file renamed into place, not the old one written over');
    assert.deepEqual(modes(), files.map((file) => `${file.slice(out.length + 1)} 444`));
  });
});
