/**
 * The outcome rules of a link check, as a pure function of the final response (corpus/README.md,
 * "Link-check outcomes", repeats this table; test/build/links/classify-response.test.ts tests it row by row).
 */
import { classifyPage } from './classify-page.ts';
import type { FinalResponse, LinkVerdict } from './link-check-types.ts';
import { readPageHeadings } from './read-page-headings.ts';
import { outcomeOfStatus } from './status-outcomes.ts';

// Soft 404: a 2xx page whose title or main heading says the page does not exist. "404" counts only as
// a token of its own, so "Form 404-B", "HB404" or "$404" does not.
const NOT_FOUND_TEXT = [
  /\b(page|file|document|content|resource)s? (was |is )?not found\b/i,
  /\b(cannot|can't|could not|couldn't) be found\b/i,
  /\b(page|file|document)\b[^.]{0,40}\b(does not|doesn't|no longer) exists?\b/i,
  /^(error:? )?not found$/i,
  /\bp[áa]gina no (encontrada|existe)\b/i,
  /(^|[^\w$,.-])404(?![\w,-]|\.\d)/,
];
// Where sites send a missing page: a last path segment that only names the error.
const NOT_FOUND_PATH = /^(404|not-?found|page-?not-?found|error-?404)(\.[a-z]{2,5})?$/i;
// Challenge interstitials of common bot walls, by title; served with 2xx by some configurations.
const CHALLENGE_TITLE = [/^just a moment\.*$/i, /^attention required! \| cloudflare$/i, /^ddos-guard$/i];

/**
 * Classifies the final response of an attempt. Rules, first match wins:
 *
 * | # | final response                                                                  | outcome      |
 * |---|---------------------------------------------------------------------------------|--------------|
 * | 1 | `cf-mitigated: challenge`, or `x-amzn-waf-action: challenge` or `captcha` header  | bot-blocked  |
 * | 2 | 401 or 403                                                                       | bot-blocked  |
 * | 3 | 404 or 410                                                                       | dead         |
 * | 4 | 2xx whose title is a bot wall's challenge ("Just a moment...")                   | bot-blocked  |
 * | 5 | 2xx whose title or first h1 says the page is not found, or is "404"              | dead         |
 * | 6 | 2xx reached by redirect at a not-found path (`/404.html`, `/page-not-found`)     | dead         |
 * | 7 | any other 2xx                                                                    | live         |
 * | 8 | anything else (429, other 4xx, 5xx, a 3xx without Location)                      | inconclusive |
 *
 * `httpStatus` is always the final response's status; `pageClass` (live only) comes from classifyPage.
 */
export function classifyResponse(response: FinalResponse): LinkVerdict {
  const { status, headers } = response;
  const httpStatus = status;
  if (headerIs(headers['cf-mitigated'], ['challenge']) || headerIs(headers['x-amzn-waf-action'], ['challenge', 'captcha'])) {
    return { outcome: 'bot-blocked', httpStatus, reason: 'bot-wall challenge header' };
  }
  // Rules 2, 3 and 8 (status-outcomes.ts, which corpus validation shares).
  const byStatus = outcomeOfStatus(status);
  if (byStatus !== undefined) return { outcome: byStatus, httpStatus, reason: `status ${status}` };

  const { title, heading } = readPageHeadings(response.body ?? '');
  if (CHALLENGE_TITLE.some((pattern) => pattern.test(title))) return { outcome: 'bot-blocked', httpStatus, reason: 'bot-wall challenge page' };
  if ([title, heading].some((text) => NOT_FOUND_TEXT.some((pattern) => pattern.test(text)))) {
    return { outcome: 'dead', httpStatus, reason: 'soft 404 (title or heading says not found)' };
  }
  if (response.finalUrl !== response.citedUrl && NOT_FOUND_PATH.test(lastSegment(response.finalUrl))) {
    return { outcome: 'dead', httpStatus, reason: 'soft 404 (redirected to a not-found page)' };
  }
  return { outcome: 'live', httpStatus, pageClass: classifyPage(response.citedUrl, response.finalUrl), reason: `status ${status}` };
}

function headerIs(value: string | string[] | undefined, accepted: readonly string[]): boolean {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.some((one) => accepted.includes(one.trim().toLowerCase()));
}

function lastSegment(url: string): string {
  return new URL(url).pathname.split('/').filter((part) => part !== '').at(-1) ?? '';
}
