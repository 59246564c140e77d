/**
 * A link verdict derived again from an archived final response, as the weekly run derived it from the live
 * one: the body decoded from its Content-Encoding by the fetch path's readers, then classifyResponse.
 */
import { BODY_CAP_BYTES } from '../links/check-corpus-links.ts';
import { classifyResponse } from '../links/classify-response.ts';
import type { LinkVerdict } from '../links/link-check-types.ts';
import { readBodyPrefix } from '../links/read-body-prefix.ts';
import type { PageBody } from '../links/read-page-body.ts';
import { headingsText } from '../links/read-page-headings.ts';
import { isHtml } from '../links/send-request.ts';
import type { ArchivedResponse } from './archived-response.ts';
import { readArchivedPage, streamOf } from './read-archived-page.ts';

/** What of the body the run read: `page` when quotes were checked on it (the whole body), else `prefix`. */
export type ArchivedRead = 'prefix' | 'page';

/**
 * The payload is what the run read (a prefix read is archived up to the end of the first `</h1>` or the
 * cap, capture-exchange.ts), so all of it is decoded: nothing stops earlier than the run did.
 */
const NEVER = /(?!)/;

/**
 * Classifies `response` for the link cited as `citedUrl`; with `read` `page`, also gives the verdict's
 * final URL, content type and page body, which the quote checks read (check-quotes.ts).
 */
export async function rederiveLinkVerdict(response: ArchivedResponse, citedUrl: string, read: ArchivedRead): Promise<LinkVerdict> {
  const { status, headers } = response;
  const contentType = single(headers['content-type']) ?? null;
  const coding = single(headers['content-encoding']);
  const success = status >= 200 && status <= 299;
  let body: string | undefined;
  let page: PageBody | undefined;
  if (success && read === 'page') {
    page = await readArchivedPage(response, contentType);
    if (page.kind === 'read' && isHtml(contentType ?? undefined)) body = headingsText(page.bytes, BODY_CAP_BYTES);
  } else if (success && isHtml(contentType ?? undefined)) {
    body = await readBodyPrefix(streamOf(response.payload), coding, { cap: BODY_CAP_BYTES, stopAt: NEVER });
  }
  const classified = classifyResponse({ status, headers, body, citedUrl, finalUrl: response.targetUri });
  if (read !== 'page') return classified;
  const verdict: LinkVerdict = { ...classified, finalUrl: response.targetUri, contentType };
  if (page !== undefined) verdict.page = page;
  return verdict;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
