import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openArchivedResponses, type ArchivedResponses } from '../../../build/archive/open-archived-responses.ts';
import type { LinkCheck } from '../../../build/corpus/corpus-types.ts';
import { createPageTextExtractor, type PageTextExtractor } from '../../../build/quotes/create-page-text-extractor.ts';
import { archivedPageForRecord } from '../../../build/reviews/archived-page-for-record.ts';
import { pageVisibleText } from '../../../build/reviews/page-visible-text.ts';
import { quoteStatesAmount } from '../../../build/reviews/quote-states-amount.ts';
import { archiveRun } from '../../support/evidence-archive-fixture.ts';

const URL_A = 'https://roofs.example.test/grant';
const page = (amount: string) => `<html><head><title>Roof Grant</title></head><body><h1>Roof Grant</h1><p>Homeowners may receive up to ${amount} for roof repair.</p>`
  + `<p style="display:none">Secret ceiling of $99,999 for insiders.</p><p>${'Other words about the program. '.repeat(20)}</p></body></html>`;

describe('archivedPageForRecord, pageVisibleText and quoteStatesAmount', () => {
  let dir: string;
  let archive: ArchivedResponses;
  let extractor: PageTextExtractor;
  let checks: LinkCheck[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hra-review-page-'));
    await archiveRun(join(dir, 'archive'), join(dir, 'corpus'), new Date('2026-10-01T10:00:00Z'), [{ url: URL_A, body: page('$5,000') }], 4001);
    await archiveRun(join(dir, 'archive'), join(dir, 'corpus'), new Date('2026-11-01T10:00:00Z'), [{ url: URL_A, body: page('$7,500') }], 4002);
    checks = readFileSync(join(dir, 'corpus/evidence/link-checks.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as LinkCheck);
    archive = openArchivedResponses(join(dir, 'archive'));
    extractor = createPageTextExtractor({ children: 1 });
  });
  after(async () => {
    archive.close();
    await extractor.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the latest archived page of the cited URL, with its record and digest', async () => {
    const found = await archivedPageForRecord(URL_A, checks, archive);
    assert.equal(found.kind, 'archived');
    if (found.kind !== 'archived') return;
    assert.equal(found.checkedAt, '2026-11-01');
    assert.equal(found.warcRecordId, checks[1]!.warcRecordId);
    assert.equal(found.payloadSha256, checks[1]!.payloadSha256);
    assert.match(Buffer.from(found.page.body).toString('utf8'), /\$7,500/);
  });

  it('passes over a line whose digest the record no longer has, and says why when none is left', async () => {
    const edited = checks.map((check, i) => (i === 1 ? { ...check, payloadSha256: 'd'.repeat(64) } : check));
    const found = await archivedPageForRecord(URL_A, edited, archive);
    assert.equal(found.kind === 'archived' && found.checkedAt, '2026-10-01');
    const none = await archivedPageForRecord(URL_A, edited.map((check) => ({ ...check, payloadSha256: 'd'.repeat(64) })), archive);
    assert.equal(none.kind, 'none');
    assert.match(none.kind === 'none' ? none.reason : '', /payload sha256 .* but the link check names d{64}.*run hra links check/);
    const never = await archivedPageForRecord('https://other.example.test/', checks, archive);
    assert.deepEqual(never, { kind: 'none', reason: 'no archived page of https://other.example.test/: run hra links check' });
  });

  it('offers only the visible text, and accepts a quote only when found there and stating the amount', async () => {
    const found = await archivedPageForRecord(URL_A, checks, archive);
    assert.ok(found.kind === 'archived');
    const text = await pageVisibleText(found.page, (p) => extractor.extract(p));
    assert.ok(text.kind === 'text');
    assert.match(text.text, /up to \$7,500 for roof repair/);
    assert.doesNotMatch(text.text, /99,999/);
    const extract = (p: typeof found.page, quotes: readonly string[]) => extractor.extract(p, quotes);
    const good = await quoteStatesAmount(found.page, 'up to $7,500 for roof repair', 7500, extract);
    assert.deepEqual(good.kind === 'judged' && [good.found, good.statesAmount], [true, true]);
    const other = await quoteStatesAmount(found.page, 'up to $7,500 for roof repair', 5000, extract);
    assert.deepEqual(other.kind === 'judged' && [other.found, other.statesAmount], [true, false]);
    const hidden = await quoteStatesAmount(found.page, 'Secret ceiling of $99,999', 99999, extract);
    assert.deepEqual(hidden.kind === 'judged' && [hidden.found, hidden.statesAmount], [false, true]);
    const invented = await quoteStatesAmount(found.page, 'up to $70,500 for roof repair', 70500, extract);
    assert.equal(invented.kind === 'judged' && invented.found, false);
  });
});
