/**
 * Which URL the record an evidence line names must be of, per kind of line: a link check's record is the
 * final response of its `url`, reached directly or through its redirect chain; a quote check's record is
 * the page at its `finalUrl`. Another kind of line (a model review's exchange) adds its rule here.
 */

/** The kinds of evidence line that name archived records. */
export const EVIDENCE_LINE_KINDS = ['link-check', 'quote-check'] as const;

/** One kind of evidence line. */
export type EvidenceLineKind = (typeof EVIDENCE_LINE_KINDS)[number];

/** The URL a line's record must be of, and whether a redirect chain from it in the archive also binds. */
export interface RecordBinding {
  /** The line's field that names the URL, for messages (`url`, `finalUrl`). */
  readonly field: string;
  /** Its value; null when the line has none (which binds no record). */
  readonly uri: string | null;
  readonly viaRedirects: boolean;
}

const RULES: Record<EvidenceLineKind, (line: Readonly<Record<string, unknown>>) => RecordBinding> = {
  'link-check': (line) => ({ field: 'url', uri: stringOrNull(line.url), viaRedirects: true }),
  'quote-check': (line) => ({ field: 'finalUrl', uri: stringOrNull(line.finalUrl), viaRedirects: false }),
};

/** The binding of a parsed evidence line of `kind`. */
export function recordBindingOf(kind: EvidenceLineKind, line: Readonly<Record<string, unknown>>): RecordBinding {
  return RULES[kind](line);
}

/**
 * Why a record of `recordUri` does not back a line with `binding`, or undefined when it does; `redirectsReach`
 * says whether the archive's hops lead from the line's URL to the record's.
 */
export async function recordBindingProblem(
  binding: RecordBinding, recordUri: string, redirectsReach: (fromUrl: string, toUri: string) => Promise<boolean>,
): Promise<string | undefined> {
  if (binding.uri === recordUri) return undefined;
  if (binding.uri !== null && binding.viaRedirects && await redirectsReach(binding.uri, recordUri)) return undefined;
  const named = binding.uri === null ? `the line has no ${binding.field}` : `not of the line's ${binding.field} ${binding.uri}`;
  return `the record is of ${recordUri}, ${named}${binding.viaRedirects ? ' nor of a redirect from it in the archive' : ''}`;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
