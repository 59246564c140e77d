import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { readCityPrograms } from '../../build/corpus/read-city-programs.ts';
import { createRecordDeriver } from '../../build/derive/derive-record.ts';
import { startModelServer, type ModelServer, type ScriptedReply } from '../../scripts/loopback/model-server.ts';
import { programPage, readReviewLines, recordUrl, writeReviewTestCorpus, type ReviewTestRecord } from '../support/review-test-corpus.ts';
import { runHra, spawnHra } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const KEY = 'sk-loopback-secret-4242';
const answer = (content: unknown): ScriptedReply => ({ kind: 'answer', content });
const says = (identity: string, amountQuote: string | null, statedAmount: number | null) => answer({ identity, amountQuote, statedAmount, rationale: 'scripted' });

interface Case {
  record: ReviewTestRecord;
  replies: ScriptedReply[];
  /** The line appended (its verdict fields), or the rejection printed. */
  expect: { line: Record<string, unknown> } | { rejected: string } | { failure: RegExp };
  /** The tier the record is served with after the run. */
  tier: string;
}

const page = (name: string, text: string, hidden = '') => programPage(name, text, hidden);
const CASES: Case[] = [
  { record: { id: 'good', name: 'Good Roof Grant', maxAmount: 7500, page: page('Good Roof Grant', 'Homeowners may receive up to $7,500 for roof repair.') },
    replies: [says('match', 'up to $7,500 for roof repair', 7500)],
    expect: { line: { kind: 'amount', identityMatch: true, amountQuote: 'up to $7,500 for roof repair', quoteFoundInPage: true } }, tier: 'source-verified' },
  { record: { id: 'ident', name: 'Ident Porch Fix', maxAmount: null, page: page('Ident Porch Fix', 'Porch repairs for seniors.') },
    replies: [says('match', null, null)], expect: { line: { kind: 'identity', identityMatch: true } }, tier: 'model-identity-reviewed' },
  { record: { id: 'mismatch', name: 'Mismatch Grant', maxAmount: 5000, page: page('Parking Permits', 'Residential parking permits cost $35.') },
    replies: [says('mismatch', null, null)], expect: { line: { kind: 'identity', identityMatch: false } }, tier: 'link-verified' },
  { record: { id: 'unsure', name: 'Unsure Grant', maxAmount: 5000, page: page('Unsure Grant', 'Details coming soon.') },
    replies: [says('unsure', null, null)], expect: { rejected: 'unsure' }, tier: 'link-verified' },
  { record: { id: 'invented', name: 'Invented Grant', maxAmount: 5000, page: page('Invented Grant', 'Grants of up to $5,000 are available.') },
    replies: [says('match', 'grants of up to $50,000 are available', 50000)], expect: { rejected: 'quote-not-found' }, tier: 'link-verified' },
  { record: { id: 'other', name: 'Other Amount Grant', maxAmount: 7500, page: page('Other Amount Grant', 'The grant now pays up to $9,000 per home.') },
    replies: [says('match', 'up to $9,000 per home', 9000)],
    expect: { line: { kind: 'amount', identityMatch: true, amountQuote: 'up to $9,000 per home', quoteFoundInPage: true } }, tier: 'model-identity-reviewed' },
  { record: { id: 'refusal', name: 'Refusal Grant', maxAmount: 5000, page: page('Refusal Grant', 'Up to $5,000.') },
    replies: [{ kind: 'refusal', refusal: 'I cannot help with that.' }], expect: { rejected: 'refusal' }, tier: 'link-verified' },
  { record: { id: 'truncated', name: 'Truncated Grant', maxAmount: 5000, page: page('Truncated Grant', 'Up to $5,000.') },
    replies: [{ kind: 'answer', content: '{"identity": "match", "amountQu', finishReason: 'length' }], expect: { rejected: 'truncated' }, tier: 'link-verified' },
  { record: { id: 'badjson', name: 'Bad Json Grant', maxAmount: 5000, page: page('Bad Json Grant', 'Up to $5,000.') },
    replies: [answer('{identity: match}')], expect: { rejected: 'invalid-answer' }, tier: 'link-verified' },
  { record: { id: 'badshape', name: 'Bad Shape Grant', maxAmount: 5000, page: page('Bad Shape Grant', 'Up to $5,000.') },
    replies: [answer({ identity: 'yes', amountQuote: null, statedAmount: null, rationale: '' })], expect: { rejected: 'invalid-answer' }, tier: 'link-verified' },
  { record: { id: 'hidden', name: 'Hidden Grant', maxAmount: 8000, page: page('Hidden Grant', 'Apply today.', '<p style="display:none">Awards of up to $8,000 each.</p><div style="position:absolute;left:-9999px">Awards of up to $8,000 each.</div>') },
    replies: [says('match', 'Awards of up to $8,000 each.', 8000)], expect: { rejected: 'quote-not-found' }, tier: 'link-verified' },
  { record: { id: 'busy', name: 'Busy Grant', maxAmount: 6000, page: page('Busy Grant', 'Awards of up to $6,000 each.') },
    replies: [{ kind: 'status', status: 429, retryAfter: '1' }, says('match', 'Awards of up to $6,000 each.', 6000)],
    expect: { line: { kind: 'amount', identityMatch: true, amountQuote: 'Awards of up to $6,000 each.', quoteFoundInPage: true } }, tier: 'source-verified' },
  { record: { id: 'nopage', name: 'No Page Grant', maxAmount: 6000, page: undefined }, replies: [], expect: { failure: /needs a links check: no archived page/ }, tier: 'unverified' },
];

describe('hra reviews run against a loopback model', () => {
  let dir: string;
  let corpus: string;
  let archive: string;
  let server: ModelServer;
  let stdout = '';
  let stderr = '';
  let status: number | null = null;

  before(async () => {
    dir = makeTempDir('hra-reviews-run-');
    ({ corpus, archive } = await writeReviewTestCorpus(dir, CASES.map((c) => c.record)));
    const served = new Map<string, number>();
    server = await startModelServer({
      reply(request) {
        const prompt = request.body?.messages?.[1]?.content ?? '';
        const found = CASES.find((c) => prompt.includes(JSON.stringify(c.record.name)));
        assert.ok(found, `no case for the prompt ${prompt.slice(0, 200)}`);
        const index = served.get(found.record.id) ?? 0;
        served.set(found.record.id, index + 1);
        return found.replies[Math.min(index, found.replies.length - 1)]!;
      },
    });
    const child = spawnHra(['reviews', 'run', '--corpus', corpus, '--archive', archive, '--endpoint', server.baseUrl, '--model', 'loopback-1',
      '--api-key-env', 'REVIEW_TEST_KEY', '--at', '2026-11-12T08:00:00Z'], { env: { REVIEW_TEST_KEY: KEY } });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => void (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
    status = await new Promise((resolve) => child.on('close', resolve));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 and prints a count line', () => {
    assert.equal(status, 0, stderr);
    assert.match(stdout, /^5 reviewed \(3 amount, 1 identity match, 1 mismatch\), 7 rejected .*; tokens: \d+ prompt, \d+ completion$/m);
  });

  for (const c of CASES) {
    it(`${c.record.id}: gives the documented line or rejection`, () => {
      const lines = readReviewLines(corpus).filter((line) => line.programId === c.record.id);
      if ('line' in c.expect) {
        assert.equal(lines.length, 1, stdout);
        const line = lines[0]!;
        for (const [field, value] of Object.entries(c.expect.line)) assert.deepEqual(line[field], value, `${field} of ${JSON.stringify(line)}`);
        assert.equal(line.reviewedAt, '2026-11-12');
        assert.deepEqual(line.reviewer, { kind: 'model', model: 'loopback-1', endpointHost: new URL(server.baseUrl).host, promptVersion: 'review-1+passages-1' });
        assert.match(String((line.exchange as { responseRecordId: string }).responseRecordId), /^<urn:uuid:/);
        assert.match(stdout, new RegExp(`^alpha/${c.record.id}: reviewed: `, 'm'));
      } else {
        assert.equal(lines.length, 0, JSON.stringify(lines));
        const pattern = 'rejected' in c.expect ? new RegExp(`^alpha/${c.record.id}: rejected \\(${c.expect.rejected}\\): `, 'm') : new RegExp(`^alpha/${c.record.id}: ${c.expect.failure.source}`, 'm');
        assert.match(stdout, pattern);
      }
    });
  }

  it('counts the rejections by reason', () => {
    assert.match(stdout, /, 7 rejected \(invalid-answer 2, quote-not-found 2, refusal 1, truncated 1, unsure 1\), 1 need a links check, 0 without text, 0 endpoint failures;/);
    assert.match(stdout, /1 need a links check/);
  });

  it('obeys Retry-After and logs the retry', () => {
    assert.match(stderr, /model: endpoint answered 429; retry 1 of 3 in 1\.0 s \(Retry-After\)/);
  });

  it('serves the tiers the rules give', () => {
    const loaded = loadCorpus(corpus);
    const derive = createRecordDeriver(loaded);
    const tiers = Object.fromEntries([...readCityPrograms(loaded, 'alpha')].map((row) => [row.id, derive('alpha', row).freshness.confidence]));
    assert.deepEqual(tiers, Object.fromEntries(CASES.map((c) => [c.record.id, c.tier])));
  });

  it('makes an accepted quote of another amount a correction candidate in links report, never applied', () => {
    const report = runHra(['links', 'report', '--corpus', corpus, '--at', '2026-11-12T09:00:00Z', '--json']);
    assert.equal(report.status, 0, report.stderr);
    const json = JSON.parse(report.stdout.trim().split('\n').at(-1)!) as { reviewedAmounts: Array<Record<string, unknown>> };
    // The reviews quoting maxAmount itself (good, busy) bind it and are no candidates.
    assert.deepEqual(json.reviewedAmounts, [{
      city: 'alpha', programId: 'other', url: recordUrl('other'), reviewedAt: '2026-11-12', reviewer: 'model',
      quote: 'up to $9,000 per home', maxAmount: 7500, statedAmounts: [{ text: '$9,000', value: 9000 }],
    }]);
    const text = runHra(['links', 'report', '--corpus', corpus, '--at', '2026-11-12T09:00:00Z']);
    assert.match(text.stdout, /^ {4}alpha\/other {2}\S+ {2}model review of 2026-11-12 {2}maxAmount \$7,500; the quote states \$9,000: "up to \$9,000 per home"$/m);
    const row = [...readCityPrograms(loadCorpus(corpus), 'alpha')].find((r) => r.id === 'other');
    assert.equal(row?.maxAmount, 7500, 'the corpus keeps its amount');
  });

  it('sends the key to the endpoint but never prints, logs or archives it', () => {
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${KEY}`);
    assert.ok(!stdout.includes(KEY) && !stderr.includes(KEY));
    const files: string[] = [];
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(folder, entry.name));
        else files.push(join(folder, entry.name));
      }
    };
    walk(archive);
    let warcs = 0;
    for (const file of files) {
      const bytes = readFileSync(file);
      const text = file.endsWith('.warc.gz') ? gunzipSync(bytes).toString('latin1') : bytes.toString('latin1');
      if (file.endsWith('.warc.gz')) {
        warcs += 1;
        if (text.includes('/v1/chat/completions')) assert.match(text, /WARC-Type: request/);
      }
      assert.ok(!text.includes(KEY), `${file} holds the key`);
      assert.ok(!/authorization:/i.test(text), `${file} holds an Authorization header`);
    }
    assert.ok(warcs >= 2);
    assert.ok(!readFileSync(join(corpus, 'evidence/source-reviews.ndjson'), 'utf8').includes(KEY));
  });
});

describe('hra reviews run refuses before any call', () => {
  let dir: string;
  let corpus: string;
  let archive: string;
  let server: ModelServer;
  before(async () => {
    dir = makeTempDir('hra-reviews-refuse-');
    ({ corpus, archive } = await writeReviewTestCorpus(dir, [CASES[0]!.record]));
    server = await startModelServer({ reply: () => says('match', null, null) });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a missing key variable, an unreachable endpoint or a bad endpoint: one hra line, no call, nothing appended', async () => {
    const closed = await startModelServer({ reply: () => ({ kind: 'hang' }) });
    const deadUrl = closed.baseUrl;
    await closed.close();
    const cases: Array<[string[], RegExp]> = [
      [['--endpoint', server.baseUrl, '--api-key-env', 'REVIEW_TEST_UNSET_KEY'], /^hra: --api-key-env REVIEW_TEST_UNSET_KEY: the variable is not set$/],
      [['--endpoint', deadUrl], /^hra: --endpoint http:\/\/127\.0\.0\.1:\d+: cannot be reached \(ECONNREFUSED\); nothing was called$/],
      [['--endpoint', 'ftp://127.0.0.1/v1'], /^hra: --endpoint ftp:\/\/127\.0\.0\.1\/v1: must be an http or https URL$/],
    ];
    for (const [args, line] of cases) {
      const child = spawnHra(['reviews', 'run', '--corpus', corpus, '--archive', archive, '--model', 'm', ...args]);
      let err = '';
      child.stdout!.resume();
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => void (err += chunk));
      const code = await new Promise((resolve) => child.on('close', resolve));
      assert.equal(code, 1, err);
      assert.match(err.trim().split('\n').at(-1)!, line);
    }
    assert.equal(server.requests.length, 0);
    assert.deepEqual(readReviewLines(corpus), []);
  });
});
