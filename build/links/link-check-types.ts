/** The shapes the link checker passes between its steps; the stored attempt is the corpus's LinkCheck. */
import type { ArchivedExchange } from '../archive/open-archive-writer.ts';
import type { LinkCheck } from '../corpus/corpus-types.ts';
import type { PageBody } from './read-page-body.ts';

/** The four outcomes an attempt can record (corpus/README.md, "Link-check outcomes"). */
export type LinkOutcome = LinkCheck['outcome'];

/** What one attempt concluded about a URL: a LinkCheck row without its URL and date, plus why. */
export interface LinkVerdict {
  outcome: LinkOutcome;
  /** Status of the final response, or null when none came (timeout, connection or TLS failure). */
  httpStatus: number | null;
  /** Required when `outcome` is `live`, absent otherwise. */
  pageClass?: 'program' | 'agency';
  /** Which rule decided, for the summary and progress lines; never stored in the corpus. */
  reason: string;
  /** Set when no request reached the host (DNS or connect failure): the no-network guard counts these. */
  unreachable?: true;
  /** Set with `unreachable` when trying again cannot change it: the proxy's own refusal, such as its 407. */
  lasting?: true;
  /** Set when retries were skipped while the network was in doubt: the URL is checked anew, this verdict never stored. */
  unretried?: true;
  /** Set when the outbound policy refused the cited URL or a redirect (outbound-policy.ts); `reason` names why. */
  refused?: true;
  /** The URL of the final response, after redirects: set when the page was asked for and a final answer came. */
  finalUrl?: string;
  /** The final response's Content-Type (null when it had none), set with `finalUrl`. */
  contentType?: string | null;
  /** The final 2xx body, when the attempt was asked for the page (the quote checks). */
  page?: PageBody;
  /** Where the final response (the one the verdict rests on) was archived, when the run archives. */
  archived?: ArchivedExchange;
}

/** One response as the classifier sees it: the last answer of the redirect chain. */
export interface FinalResponse {
  status: number;
  /** Response headers, lower-cased names (as undici delivers them). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The decoded start of the body, only for a 2xx GET whose content is HTML; otherwise undefined. */
  body: string | undefined;
  /** The URL the corpus cites. */
  citedUrl: string;
  /** The URL that gave this response, after redirects. */
  finalUrl: string;
}
