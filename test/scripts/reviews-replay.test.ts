import * as assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startModelServer, type ModelServer } from '../../scripts/loopback/model-server.ts';
import { editArchivedPayload } from '../support/edit-archived-payload.ts';
import { AMOUNT_AND_IDENT_RECORDS, answerBothRecords, readReviewLines, writeReviewTestCorpus } from '../support/review-test-corpus.ts';
import { runHra, spawnHra } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const RECORDS = AMOUNT_AND_IDENT_RECORDS;

/** A copy of the run's corpus and archive to tamper with (removed with the test's folder). */
function copyRun(dir: string): string {
  const copy = join(dir, `copy-${Math.random().toString(36).slice(2)}`);
  for (const part of ['corpus', 'archive']) cpSync(join(dir, part), join(copy, part), { recursive: true });
  return copy;
}

async function runReviews(corpus: string, archive: string, server: ModelServer): Promise<number | null> {
  const child = spawnHra(['reviews', 'run', '--corpus', corpus, '--archive', archive, '--endpoint', server.baseUrl, '--model', 'loopback-1', '--at', '2026-11-12T08:00:00Z']);
  child.stdout!.resume();
  child.stderr!.resume();
  return new Promise((resolve) => child.on('close', resolve));
}

describe('hra quotes replay re-derives model reviews from their archived exchange', () => {
  let dir: string;
  let corpus: string;
  let archive: string;
  let server: ModelServer;

  before(async () => {
    dir = makeTempDir('hra-reviews-replay-');
    ({ corpus, archive } = await writeReviewTestCorpus(dir, RECORDS));
    server = await startModelServer({ reply: answerBothRecords });
    assert.equal(await runReviews(corpus, archive, server), 0);
    assert.equal(readReviewLines(corpus).length, 2);
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports 0 differ over a run with reviews, without calling the model', () => {
    const calls = server.requests.length;
    const run = runHra(['quotes', 'replay', '--corpus', corpus, '--archive', archive, '--verify', '--json']);
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { checked: number; match: number; differ: number };
    // Two link checks and two reviews.
    assert.deepEqual([result.checked, result.match, result.differ], [4, 4, 0]);
    assert.equal(server.requests.length, calls);
  });

  it('names an edited archived answer', () => {
    const copy = copyRun(dir);
    const line = readReviewLines(join(copy, 'corpus')).find((review) => review.programId === 'amount')!;
    const responseId = (line.exchange as { responseRecordId: string }).responseRecordId;
    editArchivedPayload(join(copy, 'archive'), responseId, 'up to $7,500 for roof repair', 'up to $7,900 for roof repair');
    const run = runHra(['quotes', 'replay', '--corpus', join(copy, 'corpus'), '--archive', join(copy, 'archive'), '--verify']);
    assert.equal(run.status, 1);
    assert.ok(run.stdout.includes(`record ${responseId}: model review of alpha/amount reviewed 2026-11-12`), run.stdout);
    assert.match(run.stderr, new RegExp(`^hra: warc/\\S+ record ${responseId.replace(/[<>]/g, '.')}: the archived answer: payload sha256 [0-9a-f]{64} does not match its digest`, 'm'));
  });

  it('names an edited archived page', () => {
    const copy = copyRun(dir);
    const line = readReviewLines(join(copy, 'corpus')).find((review) => review.programId === 'ident')!;
    editArchivedPayload(join(copy, 'archive'), String(line.warcRecordId), 'Porch repairs', 'Porch rapairs');
    const run = runHra(['quotes', 'replay', '--corpus', join(copy, 'corpus'), '--archive', join(copy, 'archive'), '--verify']);
    assert.equal(run.status, 1);
    assert.ok(run.stdout.includes(`record ${String(line.warcRecordId)}: model review of alpha/ident reviewed 2026-11-12: recorded identity match, re-derived nothing: the archived page`), run.stdout);
  });
});
