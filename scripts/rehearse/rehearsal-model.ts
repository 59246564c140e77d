/**
 * The rehearsal's scripted model: the loopback OpenAI-compatible endpoint (scripts/loopback/model-server.ts)
 * answering by a fixed rule, not by a model. Given a record and the passages of its archived page, it says
 * "match" and copies the first sentence of a passage that states the record's stored `maxAmount` in dollars;
 * where none does, it says "unsure", which adds no review. So `hra reviews run` shows both of its paths, an
 * accepted review and a rejected answer, on rehearsal data; the rule is no reviewer of real pages.
 */
import { startModelServer, type ModelServer, type ReceivedRequest, type ScriptedReply } from '../loopback/model-server.ts';

/** The model name the rehearsal's reviews carry (`reviewer.model`), saying what answered. */
export const REHEARSAL_MODEL = 'rehearsal-scripted-rule';

/** Starts the scripted model on an ephemeral loopback port. */
export function startRehearsalModel(): Promise<ModelServer> {
  return startModelServer({ reply: answerByRule });
}

/** The rule's answer to one chat request (see the file head). */
export function answerByRule(request: ReceivedRequest): ScriptedReply {
  const prompt = request.body?.messages?.find((message) => message.role === 'user')?.content ?? '';
  const record = readRecord(prompt);
  const amount = record?.maxAmount;
  const quote = typeof amount === 'number' && amount > 0 ? sentenceStating(passagesOf(prompt), amount) : undefined;
  if (quote === undefined) {
    return { kind: 'answer', content: { identity: 'unsure', amountQuote: null, statedAmount: null, rationale: 'Rehearsal rule: no passage states the stored amount.' } };
  }
  return { kind: 'answer', content: { identity: 'match', amountQuote: quote, statedAmount: amount, rationale: 'Rehearsal rule: a passage states the stored amount.' } };
}

/** The record's fields: the JSON line after "Record:" (build/reviews/review-prompt.ts writes it so). */
function readRecord(prompt: string): { maxAmount?: unknown } | undefined {
  const line = /^Record:\n(.*)$/m.exec(prompt)?.[1];
  try {
    return line === undefined ? undefined : (JSON.parse(line) as { maxAmount?: unknown });
  } catch {
    return undefined;
  }
}

/** The passages, one per `[n] ` line. */
function passagesOf(prompt: string): string[] {
  return [...prompt.matchAll(/^\[\d+\] (.*)$/gm)].map((match) => match[1]!);
}

/** The first sentence that states `$<amount>` (with thousands separators) not followed by another digit. */
function sentenceStating(passages: readonly string[], amount: number): string | undefined {
  const dollars = `$${amount.toLocaleString('en-US')}`;
  for (const passage of passages) {
    for (const sentence of passage.split(/(?<=[.!?])\s+/)) {
      const at = sentence.indexOf(dollars);
      if (at >= 0 && !/[\d.,]\d/.test(sentence.slice(at + dollars.length, at + dollars.length + 2))) return sentence.trim();
    }
  }
  return undefined;
}
