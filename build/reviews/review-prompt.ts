/**
 * The model reviewer's prompt: the record's stored fields and the passages selected from its archived
 * page's visible text. The template is versioned; a review names the version it was made with, and the
 * version names the passage selection too, since both decide what the model saw.
 */
import { PASSAGES_VERSION } from './select-passages.ts';

/** The template's version, as review lines name it (`reviewer.promptVersion`). */
export const PROMPT_VERSION = `review-1+${PASSAGES_VERSION}`;

/** The record's fields the prompt states. */
export interface ReviewedRecord {
  city: string;
  programId: string;
  name: string;
  /** The agency (the row's `source`). */
  agency: string;
  maxAmount: number | null;
  maxAmountLabel: string | null;
  url: string;
}

/** One chat message. */
export interface PromptMessage {
  role: 'system' | 'user';
  content: string;
}

const SYSTEM = [
  'You check one record of a dataset of home-repair assistance programs against passages of the web page it cites.',
  'Answer only from the passages. Say "match" when the page is about this program, "mismatch" when it is about something else, "unsure" when the passages do not tell.',
  'amountQuote: copy, character for character, one short sentence or phrase from the passages that states the most a household can receive from this program, or null when none does. Never paraphrase or join passages.',
  'statedAmount: that amount in US dollars as a number, or null.',
  'rationale: one or two sentences.',
].join('\n');

/** The messages for one record. */
export function reviewPrompt(record: ReviewedRecord, passages: readonly string[]): PromptMessage[] {
  const fields = {
    name: record.name, agency: record.agency, maxAmount: record.maxAmount, maxAmountLabel: record.maxAmountLabel, url: record.url,
  };
  const page = passages.map((passage, index) => `[${index + 1}] ${passage}`).join('\n');
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Record:\n${JSON.stringify(fields)}\n\nPassages of the cited page:\n${page === '' ? '(none)' : page}` },
  ];
}
