/** The messages between create-page-text-extractor.ts and its child processes (page-text-child.ts). */
import type { FetchedPage, PageText } from './extract-page-text.ts';
import type { PageJudgement } from './judge-page-text.ts';

/** One page to extract, sent to a child. */
export interface PageTextRequest {
  id: number;
  page: FetchedPage;
  /** Quotes to judge against the text: the answer is then their judgement instead of the text. */
  quotes?: string[];
}

/** A child's messages: `ready` once its modules are loaded, then one answer per request. */
export type PageTextReply = { kind: 'ready' } | { kind: 'answer'; id: number; text: PageText | PageJudgement };
