/** Hides the password of a URL given on the command line (`--proxy`) before any message shows it. */

/**
 * Returns `text` with the password of its userinfo replaced by `***` (`http://alice:***@proxy:3128/`);
 * text without one is returned as it is. It works on text that is not a valid URL too, since the
 * refusal of a bad `--proxy` quotes what was given.
 */
export function redactPassword(text: string): string {
  const start = text.indexOf('//');
  if (start < 0) return text;
  const rest = text.slice(start + 2);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  // The WHATWG URL parser ends the userinfo at the authority's last `@`, and its password at the first `:`.
  const at = authority.lastIndexOf('@');
  const colon = authority.indexOf(':');
  if (at < 0 || colon < 0 || colon > at) return text;
  return `${text.slice(0, start + 2)}${authority.slice(0, colon)}:***${rest.slice(at)}`;
}
