/**
 * `hra quotes check` end to end: the real CLI judging saved pages the tests write (HTML strings, PDFs made
 * with pdf-lib), one line per quote in the order given, `--json` objects of a fixed shape, and every
 * refusal on one `hra:` line.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { extractPageText } from '../../build/quotes/extract-page-text.ts';
import { makeTestPdf } from '../support/make-test-pdf.ts';
import { runHra, stderrLines, type HraRun } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const dir = makeTempDir('hra-quotes-check-');
after(() => rmSync(dir, { recursive: true, force: true }));

const FILLER = '<p>The Housing Department repairs roofs, furnaces and porches for owner-occupants across the city. Applications are reviewed in the order they arrive.</p>';
const html = (body: string) => `<!doctype html><html><head><title>Home Repair Grant</title></head><body><h1>Home Repair Grant</h1>${body}${FILLER}</body></html>`;
const CHANGED = html('<p>Eligible homeowners may receive <b>up to $12,500</b> for home repairs.</p>');
const SHELL = '<!doctype html><html><head><title>Home Repair Grant</title></head><body><div id="app"></div><script src="/bundle.js"></script></body></html>';
const QUOTE = 'Eligible homeowners may receive up to $10,000 for home repairs.';

const file = (name: string, body: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
};
const check = (page: string, quotes: readonly string[], more: readonly string[] = []) => runHra(['quotes', 'check', '--page', page, ...quotes.flatMap((quote) => ['--quote', quote]), ...more]);

/** Exit 0, and stdout exactly these lines. */
function assertLines(run: HraRun, lines: readonly string[]): void {
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, lines.map((line) => `${line}\n`).join(''));
}

/** Exit 0 and one JSON object per line, each checked against the documented shape; returns them. */
function jsonLines(run: HraRun): Array<Record<string, unknown>> {
  assert.equal(run.status, 0, run.stderr);
  const rows = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const row of rows) {
    assert.equal(typeof row.quote, 'string');
    if (row.outcome === 'inconclusive') {
      assert.deepEqual(Object.keys(row), ['quote', 'outcome', 'reason']);
      assert.equal(typeof row.reason, 'string');
      continue;
    }
    const keys = ['quote', 'outcome', 'textLength', 'textSha256', ...(row.outcome === 'not-found' ? ['brokeOffAt'] : [])];
    assert.ok(row.outcome === 'found' || row.outcome === 'not-found', String(row.outcome));
    assert.deepEqual(Object.keys(row), keys);
    assert.ok(Number.isSafeInteger(row.textLength) && (row.textLength as number) > 0);
    assert.match(String(row.textSha256), /^[0-9a-f]{64}$/);
    if (row.outcome === 'not-found') {
      const broke = row.brokeOffAt as Record<string, unknown>;
      assert.deepEqual(Object.keys(broke), ['matchedChars', 'quoteChars', 'pageBefore', 'pageAfter', 'quoteAfter']);
      for (const key of ['matchedChars', 'quoteChars'] as const) assert.ok(Number.isSafeInteger(broke[key]));
      for (const key of ['pageBefore', 'pageAfter', 'quoteAfter'] as const) assert.ok([...String(broke[key])].length <= 40);
    }
  }
  return rows;
}

describe('hra quotes check on an HTML page', () => {
  let page = '';
  before(() => {
    page = file('changed.html', CHANGED);
  });
  const quotes = [QUOTE, 'Home Repair Grant', 'may receive up to $12,500 for home repairs', 'Grants for home roofs'];

  it('prints found or not-found per quote, in the order given, and exits 0 whatever the outcomes', () => {
    assertLines(check(page, quotes), ['not-found', 'found', 'found', 'not-found']);
  });

  it('with --json prints one object per quote: the measures of the weekly run\'s extraction, and where a not-found quote broke off', async () => {
    const rows = jsonLines(check(page, quotes, ['--json']));
    assert.deepEqual(rows.map((row) => [row.quote, row.outcome]), quotes.map((quote, index) => [quote, ['not-found', 'found', 'found', 'not-found'][index]]));
    const text = await extractPageText({ body: readFileSync(page), contentType: null, complete: true });
    assert.equal(text.kind, 'text');
    const measures = { textLength: [...text.text].length, textSha256: createHash('sha256').update(text.text, 'utf8').digest('hex') };
    for (const row of rows) assert.deepEqual({ textLength: row.textLength, textSha256: row.textSha256 }, measures);
    assert.deepEqual(rows[0]?.brokeOffAt, {
      matchedChars: 'eligible homeowners may receive up to $1'.length,
      quoteChars: QUOTE.length,
      pageBefore: 'eligible homeowners may receive up to $1',
      pageAfter: '2,500 for home repairs. the housing depa',
      quoteAfter: '0,000 for home repairs.',
    });
    // The first place the page holds the longest start: the <title>, before the <h1>.
    assert.deepEqual(rows[3]?.brokeOffAt, { matchedChars: 5, quoteChars: 21, pageBefore: 'home repair grant', pageAfter: ' home repair grant eligible homeowners m', quoteAfter: 's for home roofs' });
  });
});

describe('hra quotes check on a PDF, its type sniffed from the bytes', () => {
  it('reads the text layer as the weekly run does and judges each quote', async () => {
    const flyer = await makeTestPdf({ kind: 'text', pages: [['City Home Repair Program 2026', 'Eligible homeowners may receive up to $10,000', 'for home repairs. Apply at City Hall.']] });
    const page = file('flyer.bin', flyer);
    const run = check(page, ['Up to $15,000 for home repairs', QUOTE], ['--json']);
    assert.match(run.stderr, /: pdf, the type sniffed from its bytes, \d+ characters of text$/m);
    const rows = jsonLines(run);
    assert.deepEqual(rows.map((row) => row.outcome), ['not-found', 'found']);
    assert.deepEqual(rows[0]?.brokeOffAt, {
      matchedChars: 'up to $1'.length, quoteChars: 30, pageBefore: 'eligible homeowners may receive up to $1',
      pageAfter: '0,000 for home repairs. apply at city ha', quoteAfter: '5,000 for home repairs',
    });
  });

  it('a PDF drawn only as an image is inconclusive for every quote', async () => {
    const page = file('scan.bin', await makeTestPdf({ kind: 'image-only' }));
    assertLines(check(page, [QUOTE, 'Home Repair']), ['inconclusive: pdf has no text layer', 'inconclusive: pdf has no text layer']);
  });
});

describe('hra quotes check --content-type', () => {
  // windows-1252 bytes: 0x92 is a typographic apostrophe there, and invalid UTF-8.
  const body = Buffer.concat([Buffer.from('The city'), Buffer.from([0x92]), Buffer.from('s home repair program pays up to $10,000 per home. '.repeat(8))]);
  const quote = 'The city\u2019s home repair program pays up to $10,000 per home.';
  let page = '';
  before(() => {
    page = file('notice.txt', body);
  });

  it('left out, the bytes decide: plain text is neither PDF nor HTML, so nothing is judged', () => {
    assertLines(check(page, [quote]), ['inconclusive: unsupported content type missing (neither pdf nor html by its bytes)']);
  });

  it('given, it is read as that type with its charset', () => {
    assertLines(check(page, [quote], ['--content-type', 'text/plain; charset=windows-1252']), ['found']);
    // Without the charset the byte is not UTF-8: the apostrophe is lost and the quote with it.
    assertLines(check(page, [quote, 'home repair program pays up to $10,000'], ['--content-type', 'text/plain']), ['not-found', 'found']);
  });

  it('a type the weekly run does not read is inconclusive, naming it', () => {
    assertLines(check(file('grant.html', CHANGED), ['Home Repair Grant'], ['--content-type', 'application/zip']), ['inconclusive: unsupported content type application/zip']);
  });

  it('a page over its type\'s cap is inconclusive, as a fetched body over the cap is', () => {
    const big = file('big.html', html(`<p>${QUOTE}</p><!-- ${'x'.repeat(5 * 1024 * 1024)} -->`));
    assertLines(check(big, [QUOTE], ['--content-type', 'text/html']), ['inconclusive: html over 5 MiB cap']);
  });
});

describe('hra quotes check on a page with no text to judge', () => {
  it('a scripted shell: every quote inconclusive with the reason, and with --json no text measures', () => {
    const page = file('shell.html', SHELL);
    assertLines(check(page, [QUOTE, 'Home Repair Grant']), ['inconclusive: page text too short (javascript shell?)', 'inconclusive: page text too short (javascript shell?)']);
    const rows = jsonLines(check(page, [QUOTE, 'Home Repair Grant'], ['--json']));
    assert.deepEqual(rows, [QUOTE, 'Home Repair Grant'].map((quote) => ({ quote, outcome: 'inconclusive', reason: 'page text too short (javascript shell?)' })));
  });
});

describe('hra quotes check refusals', () => {
  const page = () => join(dir, 'changed.html');
  before(() => {
    writeFileSync(page(), CHANGED);
    mkdirSync(join(dir, 'a-folder'), { recursive: true });
  });
  // [case, args, the one stderr line]
  const cases: ReadonlyArray<[string, () => string[], RegExp]> = [
    ['no --page', () => ['--quote', QUOTE], /^hra: give either --page <file> or --warc <file> --record <id>$/],
    ['no --quote', () => ['--page', page()], /^hra: required option '--quote <text>' not specified$/],
    ['a mistyped flag', () => ['--page', page(), '--quotes', QUOTE], /^hra: unknown option '--quotes' \(did you mean --quote\?\)$/],
    ['a missing page file', () => ['--page', join(dir, 'nope.html'), '--quote', QUOTE], /^hra: --page \S+nope\.html: page file not found$/],
    ['a folder', () => ['--page', join(dir, 'a-folder'), '--quote', QUOTE], /^hra: --page \S+a-folder: is a directory, not a page file$/],
    ['a device', () => ['--page', '/dev/null', '--quote', QUOTE], /^hra: --page \/dev\/null: not a regular file$/],
    ['a path that cannot be read', () => ['--page', join(dir, 'x'.repeat(300)), '--quote', QUOTE], /^hra: --page \S+: cannot be read \(ENAMETOOLONG\)$/],
    ['a content type that is not one', () => ['--page', page(), '--content-type', 'html', '--quote', QUOTE],
      /^hra: --content-type "html": not a media type such as text\/html or application\/pdf \(leave it out to sniff the type from the bytes\)$/],
    ['a quote of only white space', () => ['--page', page(), '--quote', QUOTE, '--quote', ' \u00a0'], /^hra: --quote " \u00a0": normalizes to nothing, so it can never be found$/],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}: exit 1, one hra: line, nothing on stdout; with --json one {"ok": false} line`, () => {
      const run = runHra(['quotes', 'check', ...args()]);
      assert.equal(run.status, 1, run.stderr);
      assert.equal(run.stdout, '');
      const lines = stderrLines(run);
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0] ?? '', message);
      const json = runHra(['quotes', 'check', ...args(), '--json']);
      assert.equal(json.status, 1, json.stderr);
      assert.deepEqual(stderrLines(json), lines);
      assert.equal(json.stdout, `${JSON.stringify({ ok: false, error: (lines[0] ?? '').slice('hra: '.length) })}\n`);
    });
  }
});
