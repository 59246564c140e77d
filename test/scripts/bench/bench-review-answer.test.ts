import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerFirstStatedAmount } from '../../../scripts/bench/bench-review-answer.ts';
import type { ReceivedRequest } from '../../../scripts/loopback/model-server.ts';

const asking = (passages: string[]): ReceivedRequest => ({
  index: 0, method: 'POST', path: '/v1/chat/completions', headers: {}, rawBody: '',
  body: { messages: [{ role: 'system', content: 'check' }, { role: 'user', content: `Record:\n{"maxAmount":13500}\n\nPassages of the cited page:\n${passages.map((text, index) => `[${index + 1}] ${text}`).join('\n')}` }] },
});

describe('answerFirstStatedAmount', () => {
  const table: Array<[string, string[], unknown]> = [
    ['quotes the first sentence stating an amount, with its largest amount, whatever the record stores',
      ['Home Repair Program opens. Eligible homeowners may receive a grant from $1,000 up to $10,000 for a single unit home. Apply now.'],
      { identity: 'match', amountQuote: 'Eligible homeowners may receive a grant from $1,000 up to $10,000 for a single unit home.', statedAmount: 10000 }],
    ['cuts a long sentence to the clause around the amount, verbatim',
      [`${'word '.repeat(60)}receive up to $7,500 for roofs`],
      { identity: 'match', amountQuote: 'word word word word word receive up to $7,500 for roofs', statedAmount: 7500 }],
    ['says unsure without an amount', ['Porch repairs for seniors.'], { identity: 'unsure', amountQuote: null, statedAmount: null }],
  ];
  for (const [name, passages, expected] of table) {
    it(name, () => {
      const reply = answerFirstStatedAmount(asking(passages));
      assert.equal(reply.kind, 'answer');
      const { rationale: _, ...content } = (reply as { content: Record<string, unknown> }).content;
      assert.deepEqual(content, expected);
    });
  }
});
