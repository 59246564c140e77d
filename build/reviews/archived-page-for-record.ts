/**
 * The page a reviewer judges: the latest archived 2xx response of a record's cited URL (after corrections),
 * after redirects, found through the link-check lines that name their final hop's archived record. Nothing
 * is fetched: a record whose URL has no archived 2xx page needs a `links check` first.
 */
import type { LinkCheck } from '../corpus/corpus-types.ts';
import type { ArchivedResponse } from '../archive/archived-response.ts';
import { readArchivedPage } from '../archive/read-archived-page.ts';
import { sha256Hex } from '../archive/payload-digest.ts';
import type { FetchedPage } from '../quotes/extract-page-text.ts';

/** An archived page a review can rest on. */
export interface ArchivedPage {
  kind: 'archived';
  /** The cited URL, as the record serves it. */
  url: string;
  /** The URL that answered (after redirects): the record's WARC-Target-URI. */
  finalUrl: string;
  /** The link check that archived it. */
  checkedAt: string;
  /** The response record's id and the hex SHA-256 of its payload (as received, content-encoding kept). */
  warcRecordId: string;
  payloadSha256: string;
  /** The decoded payload, as the quote checks read it (read-archived-page.ts), ready for extraction. */
  page: FetchedPage;
}

/** Why no archived page is there to review. */
export interface NoArchivedPage {
  kind: 'none';
  reason: string;
}

/** The archive as this module reads it: one response by record id (open-archived-responses.ts). */
export interface ResponseReader {
  read(recordId: string): Promise<ArchivedResponse>;
}

/**
 * The latest archived 2xx page of `url` among `linkChecks` (every attempt on it, in file order: on the
 * same date the later line wins, as latest-attempt.ts reads them). An archived line whose record cannot be
 * read, whose payload no longer has the line's digest or whose status is not 2xx is passed over for an
 * older one; with none left the answer says why.
 */
export async function archivedPageForRecord(url: string, linkChecks: readonly LinkCheck[], archive: ResponseReader): Promise<ArchivedPage | NoArchivedPage> {
  const candidates = linkChecks
    .map((check, index) => ({ check, index }))
    .filter(({ check }) => check.url === url && check.warcRecordId !== undefined)
    .sort((a, b) => (a.check.checkedAt < b.check.checkedAt ? 1 : a.check.checkedAt > b.check.checkedAt ? -1 : b.index - a.index));
  if (candidates.length === 0) return { kind: 'none', reason: `no archived page of ${url}: run hra links check` };
  const skipped: string[] = [];
  for (const { check } of candidates) {
    const recordId = check.warcRecordId!;
    let response: ArchivedResponse;
    try {
      response = await archive.read(recordId);
    } catch (error) {
      skipped.push(`${recordId}: ${(error as Error).message}`);
      continue;
    }
    const digest = sha256Hex(response.payload);
    if (check.payloadSha256 !== undefined && digest !== check.payloadSha256) {
      skipped.push(`${recordId}: payload sha256 ${digest}, but the link check names ${check.payloadSha256}`);
      continue;
    }
    if (response.status < 200 || response.status > 299) {
      skipped.push(`${recordId}: status ${response.status}`);
      continue;
    }
    // A link check settles some URLs by HEAD: its archived answer has no body, so nothing to review.
    if (response.payload.byteLength === 0) {
      skipped.push(`${recordId}: an answer without a body (a HEAD request's)`);
      continue;
    }
    const contentType = single(response.headers['content-type']) ?? null;
    const body = await readArchivedPage(response, contentType);
    if (body.kind === 'broken') {
      skipped.push(`${recordId}: ${body.reason}`);
      continue;
    }
    // A link check reads a page on which neither a quote check nor a review is due only to its first heading,
    // and archives that start (or one whose page is over the cap): a review of it would judge a page it never
    // saw, and its passages would end where the fetch stopped.
    if (!body.complete) {
      skipped.push(`${recordId}: only the start of the page is archived (a link check reads a page to its first heading when no review or quote check was due on it, and no page past its cap)`);
      continue;
    }
    return {
      kind: 'archived', url, finalUrl: response.targetUri, checkedAt: check.checkedAt, warcRecordId: recordId, payloadSha256: digest,
      page: { body: body.bytes, contentType, complete: true },
    };
  }
  return { kind: 'none', reason: `no readable archived 2xx page of ${url} (${skipped.join('; ')}): run hra links check` };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
