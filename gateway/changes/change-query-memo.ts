/**
 * The change feed's query text, read once: a polling client sends the same `since`, `limit`, `city` and
 * `cursor` again and again, and each request parsed the query (URLSearchParams), the date and the limit,
 * then concatenated the page cache's key (revision and every parameter, 100-odd characters) afresh and
 * hashed it for the lookup. All of that is a function of the text and the served revision alone.
 */
import { LRUCache } from 'lru-cache';
import { parseQuery } from '../http/parse-query.ts';
import { ENTRY_OVERHEAD_BYTES } from '../programs/cache-budget.ts';
import { parseChangeQuery, type ChangeQuery } from './parse-change-query.ts';

/** A parsed change-feed query with the key of its page in a revision, made once per revision. */
export interface RememberedChangeQuery {
  readonly query: ChangeQuery;
  /** The page cache's key of this query in `revision`: `revision NUL since NUL limit NUL city NUL cursor`. */
  pageKey(revision: string): string;
}

/** The bytes of parsed queries a memo keeps at most (texts and overhead): far above what pollers send. */
export const CHANGE_QUERY_MEMO_BYTES = 1024 * 1024;

/** One query's parse and the page key of the last revision it was asked in. */
class ParsedChangeQuery implements RememberedChangeQuery {
  #revision: string | undefined;
  #pageKey = '';

  constructor(readonly query: ChangeQuery) {}

  pageKey(revision: string): string {
    // Another revision (a swap) makes the key again: a key always names the revision it is asked for.
    if (revision !== this.#revision) {
      const { query } = this;
      this.#pageKey = `${revision}\u0000${query.since}\u0000${query.limit}\u0000${query.city ?? ''}\u0000${query.cursor ?? ''}`;
      this.#revision = revision;
    }
    return this.#pageKey;
  }
}

/**
 * Reads a change-feed query text (after `?`) through a bounded memo. Only queries that parse are kept: a
 * bad one throws its 400 every time, exactly as parseChangeQuery(parseQuery(text)) does.
 */
export function createChangeQueryMemo(maxBytes = CHANGE_QUERY_MEMO_BYTES): (querystring: string) => RememberedChangeQuery {
  // The cursor makes a query up to 1 KiB; the size counts the text twice (key and cursor) plus the entry.
  const parsed = new LRUCache<string, ParsedChangeQuery>({ maxSize: maxBytes, sizeCalculation: (_query, text) => 2 * text.length + ENTRY_OVERHEAD_BYTES });
  return (text) => {
    let remembered = parsed.get(text);
    if (remembered === undefined) {
      remembered = new ParsedChangeQuery(Object.freeze(parseChangeQuery(parseQuery(text))));
      parsed.set(text, remembered);
    }
    return remembered;
  };
}
