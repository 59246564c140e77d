/**
 * Whether a URL's latest attempt ended on a 2xx whose archived payload was not empty: a body was read, so the
 * final answer was a GET of an HTML page (HEAD settles a 2xx of any other type, with no body) or a whole
 * page read for a quote or a review. HEAD cannot settle such a URL: sent first, it would only be answered
 * empty before the GET (9,045 such HEADs in an unchanged second week at the published scale, BENCHMARKS.md).
 */
import type { LinkCheck } from '../corpus/corpus-types.ts';

/** SHA-256 of no bytes: the payload a HEAD answer (or an empty body) is archived with. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export function readABodyLastTime(previous: Pick<LinkCheck, 'httpStatus' | 'payloadSha256'> | undefined): boolean {
  if (previous === undefined || previous.httpStatus === null || previous.httpStatus < 200 || previous.httpStatus > 299) return false;
  return previous.payloadSha256 !== undefined && previous.payloadSha256 !== EMPTY_SHA256;
}
