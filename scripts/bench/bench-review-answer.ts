/**
 * The reviews bench's scripted model: a rule, not a model, answering as a careful reviewer of the bench's pages
 * would. It says "match" and quotes, verbatim from the prompt's passages, the clause that states the largest
 * dollar amount of the first passage sentence stating one, with that amount, whatever the record stores (the
 * synthetic corpus's stale records store another amount than their page, as a changed program would). Without
 * such a sentence it says "unsure". The rehearsal's rule quotes only the stored amount, so on these pages it
 * would answer "unsure" to most records and the bench would time rejections, not reviews.
 */
import { findDollarAmounts } from '../../build/quotes/find-dollar-amounts.ts';
import type { ReceivedRequest, ScriptedReply } from '../loopback/model-server.ts';

/** The longest quote the rule copies: the clause around the amount, as a reviewer would pick it. */
const MAX_QUOTE_CHARS = 160;
/** Words kept before the amount when the sentence is longer than MAX_QUOTE_CHARS. */
const WORDS_BEFORE = 8;

/** The rule's answer to one chat request (see the file head). */
export function answerFirstStatedAmount(request: ReceivedRequest): ScriptedReply {
  const prompt = request.body?.messages?.find((message) => message.role === 'user')?.content ?? '';
  for (const [, passage] of prompt.matchAll(/^\[\d+\] (.*)$/gm)) {
    for (const sentence of passage!.split(/(?<=[.!?])\s+/)) {
      if (findDollarAmounts(sentence).length === 0) continue;
      const quote = clauseAround(sentence, sentence.indexOf('$'));
      const amounts = findDollarAmounts(quote);
      if (amounts.length === 0) continue;
      const largest = amounts.reduce((best, amount) => (amount.value > best.value ? amount : best));
      return { kind: 'answer', content: { identity: 'match', amountQuote: quote, statedAmount: largest.value, rationale: 'Bench rule: the first passage sentence stating a dollar amount.' } };
    }
  }
  return { kind: 'answer', content: { identity: 'unsure', amountQuote: null, statedAmount: null, rationale: 'Bench rule: no passage states a dollar amount.' } };
}

/** `sentence` itself when short; else WORDS_BEFORE words before `at` through the end, cut to MAX_QUOTE_CHARS at a word. */
function clauseAround(sentence: string, at: number): string {
  const text = sentence.trim();
  if (text.length <= MAX_QUOTE_CHARS) return text;
  const before = sentence.slice(0, at).trimEnd().split(' ').slice(-WORDS_BEFORE).join(' ');
  const clause = `${before} ${sentence.slice(at)}`.trim();
  if (clause.length <= MAX_QUOTE_CHARS) return clause;
  const cut = clause.lastIndexOf(' ', MAX_QUOTE_CHARS);
  return clause.slice(0, cut > 0 ? cut : MAX_QUOTE_CHARS);
}
