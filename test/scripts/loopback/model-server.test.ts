import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHARS_PER_TOKEN } from '../../../build/reviews/select-passages.ts';
import { startModelServer, type ModelServer } from '../../../scripts/loopback/model-server.ts';

describe('startModelServer usage', () => {
  let server: ModelServer;
  before(async () => {
    server = await startModelServer({ reply: () => ({ kind: 'answer', content: 'x'.repeat(41) }) });
  });
  after(() => server.close());

  it('counts what a model reads (messages and response format) and the answer at the prompt builder\'s characters per token', async () => {
    const responseFormat = { type: 'json_schema', json_schema: { name: 'n', strict: true, schema: { type: 'object' } } };
    const body = { model: 'm', messages: [{ role: 'system', content: 'a'.repeat(100) }, { role: 'user', content: 'b'.repeat(303) }], response_format: responseFormat, temperature: 0 };
    const answer = await fetch(`${server.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const { usage } = (await answer.json()) as { usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } };
    const prompt = Math.ceil((100 + 303 + JSON.stringify(responseFormat).length) / CHARS_PER_TOKEN);
    assert.deepEqual(usage, { prompt_tokens: prompt, completion_tokens: Math.ceil(41 / CHARS_PER_TOKEN), total_tokens: prompt + Math.ceil(41 / CHARS_PER_TOKEN) });
  });
});
