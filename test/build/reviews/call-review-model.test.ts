import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callReviewModel, MAX_ANSWER_BYTES } from '../../../build/reviews/call-review-model.ts';
import { startModelServer, type ModelServer, type ScriptedReply } from '../../../scripts/loopback/model-server.ts';

const MESSAGES = [{ role: 'system', content: 'check' }, { role: 'user', content: 'Record: x' }] as const;

describe('callReviewModel', () => {
  let server: ModelServer;
  let script: (index: number) => ScriptedReply = () => ({ kind: 'hang' });
  before(async () => {
    server = await startModelServer({ reply: (request) => script(request.index) });
  });
  after(() => server.close());

  it('sends temperature 0 and the strict answer schema, and captures the exchange without a key it was not given', async () => {
    script = () => ({ kind: 'answer', content: { identity: 'match', amountQuote: null, statedAmount: null, rationale: 'r' } });
    const call = await callReviewModel({ baseUrl: server.baseUrl, model: 'm', apiKey: undefined }, MESSAGES);
    assert.equal(call.kind, 'answered');
    const sent = server.requests.at(-1)!;
    assert.equal(sent.headers.authorization, undefined);
    assert.equal(sent.body?.temperature, 0);
    assert.deepEqual((sent.body?.response_format as { type: string; json_schema: { strict: boolean } }).type, 'json_schema');
    assert.equal((sent.body?.response_format as { json_schema: { strict: boolean } }).json_schema.strict, true);
    if (call.kind !== 'answered') return;
    assert.equal(Buffer.from(call.exchange.request.payload!).toString('utf8'), sent.rawBody);
    assert.equal(call.exchange.targetUri, `${server.baseUrl}/chat/completions`);
    assert.equal(call.attempts, 1);
  });

  it('gives up on 500 after its retries, backing off between them', async () => {
    script = () => ({ kind: 'status', status: 500 });
    const waits: number[] = [];
    const logs: string[] = [];
    const before = server.requests.length;
    const call = await callReviewModel({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k', retries: 2, sleep: async (ms) => void waits.push(ms), log: (m) => logs.push(m) }, MESSAGES);
    assert.deepEqual(call, { kind: 'failed', reason: 'endpoint answered 500 (after 3 attempts)', attempts: 3 });
    assert.equal(server.requests.length - before, 3);
    assert.deepEqual(waits, [1000, 2000]);
    assert.equal(logs.length, 2);
  });

  it('does not retry a 400', async () => {
    script = () => ({ kind: 'status', status: 400 });
    const call = await callReviewModel({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k', retries: 2, sleep: async () => {} }, MESSAGES);
    assert.deepEqual(call, { kind: 'failed', reason: 'endpoint answered 400', attempts: 1 });
  });

  it('times out a hanging endpoint', async () => {
    script = () => ({ kind: 'hang' });
    const call = await callReviewModel({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k', timeoutMs: 300, retries: 1, sleep: async () => {} }, MESSAGES);
    assert.deepEqual(call, { kind: 'failed', reason: 'no answer within 300 ms (after 2 attempts)', attempts: 2 });
  });

  it('stops reading an oversized answer before parsing it, and does not retry it', async () => {
    script = () => ({ kind: 'raw', body: `{"pad": "${'x'.repeat(MAX_ANSWER_BYTES)}"}` });
    const call = await callReviewModel({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k', retries: 2, sleep: async () => {} }, MESSAGES);
    assert.deepEqual(call, { kind: 'failed', reason: `the answer is over ${MAX_ANSWER_BYTES} bytes`, attempts: 1 });
  });

  it('hands back a 2xx body that is not JSON, for the judgement to reject', async () => {
    script = () => ({ kind: 'raw', body: 'not json at all' });
    const call = await callReviewModel({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k', retries: 0 }, MESSAGES);
    assert.equal(call.kind, 'answered');
    assert.equal(call.kind === 'answered' && Buffer.from(call.body).toString(), 'not json at all');
  });
});
