/** Decides whether the exclusion policy withholds a program row, and why. */
import type { AdjacentRule, ProgramRow, QuarantineEntry } from '../corpus/corpus-types.ts';
import { recordKey } from './apply-corrections.ts';

/** Served rows are `served`; withheld ones say which policy withholds them. Quarantine wins over scope. */
export type Exclusion = 'served' | 'quarantined' | 'adjacent';

/** Builds the classifier for one corpus's policy. */
export function createExclusionClassifier(rules: readonly AdjacentRule[], quarantine: readonly QuarantineEntry[]) {
  const quarantined = new Set(quarantine.map((entry) => recordKey(entry.city, entry.programId)));
  return function classifyExclusion(city: string, row: ProgramRow): Exclusion {
    if (quarantined.has(recordKey(city, row.id))) return 'quarantined';
    return rules.some((rule) => matchesRule(rule, row)) ? 'adjacent' : 'served';
  };
}

function matchesRule(rule: AdjacentRule, row: ProgramRow): boolean {
  const { category, scope, nameContains } = rule.match;
  if (category !== undefined && row.category !== category) return false;
  if (scope !== undefined && row.scope !== scope) return false;
  if (nameContains !== undefined && !row.name.toLowerCase().includes(nameContains.toLowerCase())) return false;
  return true;
}
