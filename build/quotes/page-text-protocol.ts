/** The messages between create-page-text-extractor.ts and its child processes (page-text-child.ts). */
import type { FetchedPage, PageText } from './extract-page-text.ts';

/** One page to extract, sent to a child. */
export interface PageTextRequest {
  id: number;
  page: FetchedPage;
}

/** A child's messages: `ready` once its modules are loaded, then one answer per request. */
export type PageTextReply = { kind: 'ready' } | { kind: 'answer'; id: number; text: PageText };
