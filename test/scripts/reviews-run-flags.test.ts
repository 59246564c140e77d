import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startModelServer, type ModelServer } from '../../scripts/loopback/model-server.ts';
import { programPage, readReviewLines, writeReviewTestCorpus } from '../support/review-test-corpus.ts';
import { lastLine, runHra, runHraAsync } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const SLOW_MS = 3000;

describe('hra reviews run --timeout-ms and --retries', () => {
  let corpus: string;
  let archive: string;
  let server: ModelServer;
  before(async () => {
    const dir = makeTempDir('hra-reviews-flags-');
    ({ corpus, archive } = await writeReviewTestCorpus(dir, [
      { id: 'slow', name: 'Slow Roof Grant', maxAmount: 5000, page: programPage('Slow Roof Grant', 'Up to $5,000 for roofs.') },
      { id: 'broken', name: 'Broken Porch Grant', maxAmount: 4000, page: programPage('Broken Porch Grant', 'Up to $4,000 for porches.') },
    ]));
    const isSlow = (prompt: string) => prompt.includes('"Slow Roof Grant"');
    server = await startModelServer({
      reply: (request) => (isSlow(request.body?.messages?.[1]?.content ?? '')
        ? { kind: 'answer', content: { identity: 'match', amountQuote: 'Up to $5,000 for roofs.', statedAmount: 5000, rationale: 'late' } }
        : { kind: 'status', status: 500 }),
      latencyMs: (request) => (isSlow(request.body?.messages?.[1]?.content ?? '') ? SLOW_MS : 0),
    });
  });
  after(() => server.close());

  it('times out a slow answer and gives up on 500 after the retries given, appending nothing', async () => {
    const run = await runHraAsync(['reviews', 'run', '--corpus', corpus, '--archive', archive, '--endpoint', server.baseUrl, '--model', 'm',
      '--at', '2026-11-12T08:00:00Z', '--timeout-ms', '400', '--retries', '1']);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stdout, /^alpha\/slow: endpoint failure: no answer within 400 ms \(after 2 attempts\)$/m);
    assert.match(run.stdout, /^alpha\/broken: endpoint failure: endpoint answered 500 \(after 2 attempts\)$/m);
    assert.match(run.stderr, /model: no answer within 400 ms; retry 1 of 1 in 1\.0 s/);
    assert.match(run.stderr, /model: endpoint answered 500; retry 1 of 1 in 1\.0 s/);
    assert.equal(lastLine(run.stderr), 'hra: 2 records got no answer from the endpoint after retries (0 reviewed); run again to resume');
    const prompts = server.requests.map((request) => request.body?.messages?.[1]?.content ?? '');
    assert.equal(prompts.filter((prompt) => prompt.includes('"Slow Roof Grant"')).length, 2);
    assert.equal(prompts.filter((prompt) => prompt.includes('"Broken Porch Grant"')).length, 2);
    assert.deepEqual(readReviewLines(corpus), []);
  });

  it('--retries 0 makes one attempt', async () => {
    const before = server.requests.length;
    const run = await runHraAsync(['reviews', 'run', '--corpus', corpus, '--archive', archive, '--endpoint', server.baseUrl, '--model', 'm',
      '--at', '2026-11-12T08:00:00Z', '--only', 'alpha/broken', '--retries', '0']);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stdout, /^alpha\/broken: endpoint failure: endpoint answered 500$/m);
    assert.equal(server.requests.length - before, 1);
  });

  const BAD: Array<[string[], string]> = [
    [['--timeout-ms', '99'], 'hra: --timeout-ms "99": must be a whole number from 100 to 600000'],
    [['--timeout-ms', '600001'], 'hra: --timeout-ms "600001": must be a whole number from 100 to 600000'],
    [['--timeout-ms', '1.5'], 'hra: --timeout-ms "1.5": must be a whole number from 100 to 600000'],
    [['--retries', '11'], 'hra: --retries "11": must be a whole number from 0 to 10'],
    [['--retries', '-1'], 'hra: --retries "-1": must be a whole number from 0 to 10'],
  ];
  for (const [flags, line] of BAD) {
    it(`${flags.join(' ')}: one hra line, no call, nothing appended`, () => {
      const before = server.requests.length;
      const run = runHra(['reviews', 'run', '--corpus', corpus, '--archive', archive, '--endpoint', server.baseUrl, '--model', 'm', ...flags]);
      assert.equal(run.status, 1, run.stderr);
      assert.equal(run.stderr.trim(), line);
      assert.equal(server.requests.length, before);
      assert.deepEqual(readReviewLines(corpus), []);
    });
  }
});
