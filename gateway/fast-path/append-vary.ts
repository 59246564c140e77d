/** Adds a token to the Vary field of a flat header list, as Koa's `ctx.vary` writes it: one field. */

/**
 * Adds `token` to the Vary field `headers` already holds (`X-Api-Key` on licensed routes) and returns true,
 * or returns false, changing nothing, when it holds none.
 */
export function addToVary(headers: string[], token: string): boolean {
  for (let index = 0; index < headers.length; index += 2) {
    const name = headers[index] as string;
    // The length first: no lower-cased copy of every other header name per response.
    if (name.length === 4 && name.toLowerCase() === 'vary') {
      headers[index + 1] = `${headers[index + 1]}, ${token}`;
      return true;
    }
  }
  return false;
}

/** Adds `token` to the Vary field of `headers`, or appends the field when there is none. */
export function appendVary(headers: string[], token: string): void {
  if (!addToVary(headers, token)) headers.push('Vary', token);
}
