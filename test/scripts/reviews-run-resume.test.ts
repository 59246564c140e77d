import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openArchiveIndex } from '../../build/archive/archive-index.ts';
import { startModelServer, type ModelServer } from '../../scripts/loopback/model-server.ts';
import { programPage, writeReviewTestCorpus, type ReviewTestRecord } from '../support/review-test-corpus.ts';
import { killAfterAppended, lastLine, runHraAsync } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const RECORDS: ReviewTestRecord[] = Array.from({ length: 12 }, (_, index) => {
  const amount = 1000 * (index + 2);
  const name = `Resume Grant ${String.fromCharCode(65 + index)}`;
  return { id: `resume-${index}`, name, maxAmount: amount, page: programPage(name, `Homeowners may receive up to $${amount.toLocaleString('en-US')} for repairs.`) };
});
const KILL_AFTER_LINES = 4;

/** The record a prompt is about, by the name it states. */
function recordOf(prompt: string): ReviewTestRecord {
  const found = RECORDS.find((record) => prompt.includes(JSON.stringify(record.name)));
  assert.ok(found, `no record for the prompt ${prompt.slice(0, 200)}`);
  return found;
}

/** The WARC files of the archive still open (a writer's, or one a killed writer left). */
function openWarcFiles(archive: string): string[] {
  return (readdirSync(join(archive, 'warc'), { recursive: true }) as string[]).filter((name) => name.endsWith('.open'));
}

/** The review lines as the file holds them, each checked to be whole. */
function wholeLines(corpus: string): Array<Record<string, unknown>> {
  const text = readFileSync(join(corpus, 'evidence/source-reviews.ndjson'), 'utf8');
  assert.ok(text === '' || text.endsWith('\n'), 'the file ends inside a line');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('hra reviews run killed mid-run, then run again', () => {
  let corpus: string;
  let archive: string;
  let dir: string;
  let server: ModelServer;
  const run = (extra: string[] = []) => ['reviews', 'run', '--corpus', corpus, '--archive', archive, '--endpoint', server.baseUrl, '--model', 'loopback-1', '--at', '2026-11-12T08:00:00Z', ...extra];
  let afterKill: Array<Record<string, unknown>> = [];
  let askedBeforeKill = 0;
  before(async () => {
    dir = makeTempDir('hra-reviews-resume-');
    ({ corpus, archive } = await writeReviewTestCorpus(dir, RECORDS));
    server = await startModelServer({
      reply(request) {
        const record = recordOf(request.body?.messages?.[1]?.content ?? '');
        const quote = `Homeowners may receive up to $${record.maxAmount!.toLocaleString('en-US')} for repairs.`;
        return { kind: 'answer', content: { identity: 'match', amountQuote: quote, statedAmount: record.maxAmount, rationale: 'scripted' } };
      },
      // Staggered, so lines land one by one and the kill falls between them, with calls still in flight.
      latencyMs: (request) => 300 + ((request.index * 170) % 900),
    });
    const killed = await killAfterAppended(run(), join(corpus, 'evidence/source-reviews.ndjson'), KILL_AFTER_LINES);
    assert.equal(killed.signal, 'SIGKILL', `the run ended before the kill: ${killed.stderr}`);
    afterKill = wholeLines(corpus);
    askedBeforeKill = server.requests.length;
  });
  after(() => server.close());

  it('leaves whole lines only, none twice, some records still unreviewed', () => {
    assert.ok(afterKill.length >= KILL_AFTER_LINES && afterKill.length < RECORDS.length, `${afterKill.length} lines`);
    const keys = afterKill.map((line) => `${line.city}/${line.programId}`);
    assert.equal(new Set(keys).size, keys.length, keys.join(', '));
    assert.equal(openWarcFiles(archive).length, 1, 'the killed writer\'s file is left open');
  });

  it('every appended line names a page and an exchange that are in the archive index', () => {
    const index = openArchiveIndex(archive, { readonly: true });
    try {
      const typeOf = (recordId: unknown) => (index.database.prepare('SELECT type, target_uri AS targetUri FROM records WHERE record_id = ?').get(recordId) as { type: string; targetUri: string } | undefined);
      for (const line of afterKill) {
        const exchange = line.exchange as { requestRecordId: string; responseRecordId: string };
        assert.equal(typeOf(line.warcRecordId)?.type, 'response', `page of ${line.programId}`);
        assert.deepEqual(typeOf(exchange.responseRecordId), { type: 'response', targetUri: `${server.baseUrl}/chat/completions` }, `exchange of ${line.programId}`);
        assert.equal(typeOf(exchange.requestRecordId)?.type, 'request', `request of ${line.programId}`);
      }
    } finally {
      index.close();
    }
  });

  it('a second run reviews exactly the records the first did not, and the archive verifies', async () => {
    const reviewedFirst = new Set(afterKill.map((line) => line.programId));
    const again = await runHraAsync(run());
    assert.equal(again.status, 0, again.stderr);
    const asked = server.requests.slice(askedBeforeKill).map((request) => recordOf(request.body?.messages?.[1]?.content ?? '').id).sort();
    assert.deepEqual(asked, RECORDS.map((record) => record.id).filter((id) => !reviewedFirst.has(id)).sort());
    assert.match(again.stdout, new RegExp(`^${RECORDS.length - reviewedFirst.size} reviewed \\(${RECORDS.length - reviewedFirst.size} amount, `, 'm'));
    const lines = wholeLines(corpus);
    assert.deepEqual(lines.slice(0, afterKill.length), afterKill, 'the first run\'s lines are kept as they were');
    assert.deepEqual(lines.map((line) => line.programId).sort(), RECORDS.map((record) => record.id).sort());
    assert.deepEqual(openWarcFiles(archive), [], 'the second run sealed the killed writer\'s file');

    const build = await runHraAsync(['build', '--corpus', corpus, '--out', join(dir, 'dist')]);
    assert.equal(build.status, 0, build.stderr);
    const verify = await runHraAsync(['verify', join(dir, 'dist', `${lastLine(build.stdout)}.sqlite`), '--corpus', corpus, '--archive', archive]);
    assert.equal(verify.status, 0, verify.stderr);
    assert.match(verify.stderr, /^archive: \d+ evidence lines, \d+ name a record \(\d+ records, \d+ payloads hashed\), \d+ not archived, 0 pruned$/m);
  });

  it('a third run finds nothing due and calls nothing', async () => {
    const before = server.requests.length;
    const third = await runHraAsync(run());
    assert.equal(third.status, 0, third.stderr);
    assert.equal(server.requests.length, before);
    assert.equal(wholeLines(corpus).length, RECORDS.length);
  });
});
