/** Decides whether a live cited URL is a program's own page or a generic agency page (spec 2.2 confidence). */

/** `program` when the page is specific to the cited program; `agency` for a site's landing page. */
export type PageClass = 'program' | 'agency';

// A last path segment that only names a directory's default document: `/index.html` is the site root.
const INDEX_DOCUMENT = /^(index|default|home|main|welcome)(\.[a-z]{2,5})?$/i;
// A first path segment that only picks a language (`/en/`, `/es/`, `/zh-hant/`): still the root. A closed
// list of the languages US agencies translate into, so a short word such as `/go` or `/pa` is not one.
const LANGUAGE = /^(en|es|fr|zh|vi|ko|ru|ar|ht|pt|pl|tl|ja|de|it|so|hmn)(-[a-z]{2,4})?$/i;

/**
 * Rules, first match wins:
 * 1. the cited URL is a site root -> `agency` (an agency's home page, wherever it redirects);
 * 2. the final URL is a site root -> `agency` (a deep link that now lands on the home page);
 * 3. the final URL is an ancestor of the cited path on the same site (`/housing/roof-grant` redirected
 *    to `/housing/`) -> `agency` (the program page is gone and the site sends visitors up a level);
 * 4. otherwise -> `program`.
 * A site root is a path that is empty once a trailing default document (`index.html`, `default.aspx`,
 * `home`) and a leading language segment (`en`, `es`, `en-us`, ...) are removed; query and fragment are ignored.
 */
export function classifyPage(citedUrl: string, finalUrl: string): PageClass {
  const cited = new URL(citedUrl);
  const final = new URL(finalUrl);
  if (isSiteRoot(cited) || isSiteRoot(final)) return 'agency';
  if (siteOf(cited) === siteOf(final)) {
    const from = segments(cited);
    const to = segments(final);
    if (to.length < from.length && to.every((segment, index) => segment === from[index])) return 'agency';
  }
  return 'program';
}

function isSiteRoot(url: URL): boolean {
  const parts = segments(url);
  if (parts.length > 0 && INDEX_DOCUMENT.test(parts.at(-1) ?? '')) parts.pop();
  if (parts.length > 0 && LANGUAGE.test(parts[0] ?? '')) parts.shift();
  return parts.length === 0;
}

function segments(url: URL): string[] {
  return url.pathname.split('/').filter((part) => part !== '').map((part) => part.toLowerCase());
}

/** `www.` and the scheme do not make another site. */
function siteOf(url: URL): string {
  return url.host.replace(/^www\./, '');
}
