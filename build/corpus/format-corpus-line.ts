/**
 * One corpus row as one NDJSON line in the corpus's own style: `{"key": value, "other": [1, 2]}`, a space
 * after every `:` and `,` at every depth. Hand-written lines use it, so lines the tools append look the same in
 * the diffs a maintainer reviews.
 */

/** `value` as one line of the corpus's spaced JSON, without its newline. */
export function formatCorpusLine(value: unknown): string {
  const text = JSON.stringify(value, null, 1);
  if (text === undefined) throw new Error('a corpus line must hold a JSON value');
  // JSON strings cannot hold a raw newline, so every newline here is the indentation's: a comma's newline
  // becomes its space, any other goes with its indentation.
  return text.replace(/,\n */g, ', ').replace(/\n */g, '');
}
