/**
 * `hra quotes check --warc <file> --record <id>` end to end: the real CLI judging a response read from a
 * WARC file without its index (payload as received, decoded from its Content-Encoding, its type from the
 * archived headers), a revisit followed within the file, and every refusal on one `hra:` line naming the
 * file and the record.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { runHra, stderrLines } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { writeTestWarc } from '../support/write-test-warc.ts';

const dir = makeTempDir('hra-quotes-warc-');
after(() => rmSync(dir, { recursive: true, force: true }));

const FILLER = '<p>The Housing Department repairs roofs, furnaces and porches for owner-occupants across the city. Applications are reviewed in the order they arrive.</p>';
const PAGE = `<!doctype html><html><head><title>Home Repair Grant</title></head><body><h1>Home Repair Grant</h1><p>Eligible homeowners may receive <b>up to $12,500</b> for home repairs.</p>${FILLER}</body></html>`;
const FOUND = 'may receive up to $12,500 for home repairs';
const MISSING = 'Eligible homeowners may receive up to $10,000 for home repairs.';
const URL = 'http://quotes.test/grant';
const id = (n: number) => `<urn:uuid:00000000-0000-4000-8000-00000000000${n}>`;

const warc = join(dir, 'week.warc.gz');
const lone = join(dir, 'lone-revisit.warc.gz');
const forged = join(dir, 'forged.warc.gz');
const torn = join(dir, 'torn.warc.gz');

before(async () => {
  await writeTestWarc(warc, [
    { type: 'request', id: id(1), url: URL },
    // Stored as received: gzip-coded, so judging it needs the fetch path's decoding.
    { type: 'response', id: id(2), url: URL, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Encoding': 'gzip' }, payload: gzipSync(PAGE) },
    { type: 'revisit', id: id(3), url: URL, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Encoding': 'gzip' }, refersTo: id(2) },
    { type: 'response', id: id(4), url: `${URL}/gone`, status: 404, headers: { 'Content-Type': 'text/html' }, payload: PAGE },
    { type: 'response', id: id(5), url: `${URL}/plain`, headers: { 'Content-Type': 'text/plain' }, payload: 'Eligible homeowners may receive up to $12,500 for home repairs. '.repeat(4) },
  ]);
  await writeTestWarc(lone, [{ type: 'revisit', id: id(3), url: URL, headers: { 'Content-Type': 'text/html' }, refersTo: id(2) }]);
  await writeTestWarc(forged, [{ type: 'response', id: id(2), url: URL, headers: { 'Content-Type': 'text/html' }, payload: PAGE.replace('$12,500', '$99,500'),
    warcHeaders: { 'WARC-Payload-Digest': 'sha256:MAAK267M7TL2ZSU53K6OIPZEWM474M332LCZ4CK7ZTCM3KAVI5XA====' } }]);
  const bytes = readFileSync(warc);
  writeFileSync(torn, bytes.subarray(0, Math.floor(bytes.length / 3)));
});

const check = (file: string, record: string, more: readonly string[] = []) =>
  runHra(['quotes', 'check', '--warc', file, '--record', record, '--quote', FOUND, '--quote', MISSING, ...more]);

describe('hra quotes check --warc', () => {
  it('judges a gzip-coded response as the weekly run read it, its type from the archived headers', () => {
    const run = check(warc, id(2));
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'found\nnot-found\n');
  });

  it('follows a revisit to the response it repeats when the file holds it, with the same measures', () => {
    const direct = check(warc, id(2), ['--json']);
    const revisit = check(warc, id(3), ['--json']);
    assert.equal(revisit.status, 0, revisit.stderr);
    assert.equal(revisit.stdout, direct.stdout);
  });

  it('--content-type overrides the archived type', () => {
    const run = check(warc, id(5));
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'found\nnot-found\n');
    // Read as a PDF, the same bytes are no PDF at all.
    const pdf = check(warc, id(5), ['--content-type', 'application/pdf']);
    assert.equal(pdf.stdout, 'inconclusive: pdf is damaged (invalid structure)\n'.repeat(2), pdf.stderr);
  });

  it('a response that is not 2xx is not a page: every quote inconclusive', () => {
    const run = check(warc, id(4));
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'inconclusive: the archived response has status 404, not a page\n'.repeat(2));
  });
});

describe('hra quotes check --warc refusals', () => {
  // [case, args, the one stderr line]
  const cases: ReadonlyArray<[string, () => string[], RegExp]> = [
    ['a record the file lacks', () => ['--warc', warc, '--record', id(9)], /^hra: \S+week\.warc\.gz: no record <urn:uuid:\S+9> in the file$/],
    ['a request record', () => ['--warc', warc, '--record', id(1)], /^hra: \S+week\.warc\.gz: record <urn:uuid:\S+1> is a request record, not a response$/],
    ['a revisit whose original is in another file', () => ['--warc', lone, '--record', id(3)],
      /^hra: \S+lone-revisit\.warc\.gz: record <urn:uuid:\S+3> is a revisit of <urn:uuid:\S+2>, which this file does not hold \(read it from the archive with hra quotes replay\)$/],
    ['a payload that no longer hashes to its digest', () => ['--warc', forged, '--record', id(2)],
      /^hra: \S+forged\.warc\.gz: record <urn:uuid:\S+2>: payload sha256 [0-9a-f]{64} does not match its WARC-Payload-Digest [0-9a-f]{64}$/],
    ['a torn file', () => ['--warc', torn, '--record', id(5)], /^hra: \S+torn\.warc\.gz: (cannot be read as WARC while looking for record <urn:uuid:\S+5> \(.+\)|no record <urn:uuid:\S+5> in the file)$/],
    ['a missing file', () => ['--warc', join(dir, 'nope.warc.gz'), '--record', id(2)], /^hra: \S+nope\.warc\.gz: WARC file not found \(looking for record <urn:uuid:\S+2>\)$/],
    ['--warc without --record', () => ['--warc', warc], /^hra: --warc \S+week\.warc\.gz: give the record to judge with --record <id>$/],
    ['--page and --warc together', () => ['--warc', warc, '--record', id(2), '--page', warc], /^hra: give either --page <file> or --warc <file> --record <id>$/],
    ['--record with --page', () => ['--page', warc, '--record', id(2)], /^hra: --record names a record of --warc, not of --page$/],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}: exit 1, one hra: line, nothing on stdout`, () => {
      const run = runHra(['quotes', 'check', ...args(), '--quote', FOUND]);
      assert.equal(run.status, 1, run.stderr);
      assert.equal(run.stdout, '');
      const lines = stderrLines(run);
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0] ?? '', message);
    });
  }
});
