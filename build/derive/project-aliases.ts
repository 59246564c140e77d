/** Resolves a `project` query (spec 4.3) to the canonical project type it names, directly or by alias. */

/** The part of the corpus vocabularies the `project` filter reads. */
export interface ProjectVocabulary {
  projectTypes: readonly string[];
  projectAliases: Readonly<Record<string, string>>;
}

/**
 * Returns the canonical project type for `query` (lower-cased and trimmed): the query itself when it is a
 * canonical type, else the type its alias points to, else undefined (the filter then matches nothing,
 * spec 4.3's valid empty collection). Canonical names win over an alias of the same spelling, and an
 * alias pointing outside `projectTypes` resolves to nothing rather than to a value no record can hold.
 */
export function resolveProjectQuery(query: string, vocab: ProjectVocabulary): string | undefined {
  const wanted = query.trim().toLowerCase();
  if (wanted === '') return undefined;
  if (vocab.projectTypes.includes(wanted)) return wanted;
  // Own keys only: a query such as "constructor" or "__proto__" must not reach Object.prototype.
  const target = Object.hasOwn(vocab.projectAliases, wanted) ? vocab.projectAliases[wanted] : undefined;
  return target !== undefined && vocab.projectTypes.includes(target) ? target : undefined;
}
