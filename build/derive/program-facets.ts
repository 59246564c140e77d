/**
 * Filter facets of one record (spec 4.3), precomputed at build so the gateway's filtering is plain
 * membership: every rule (income hierarchy, unrestricted populations) is decided here, once.
 */
import { INCOME_TIERS, type FundingStatus } from '../contract/vocab-enums.ts';
import type { ProgramRow } from '../corpus/corpus-types.ts';
import { classifyIncomeRequirement, matchesIncomeFilter } from './income-tier.ts';

/** The values of each query parameter that match a record. */
export interface ProgramFacets {
  /** `type`: exact members of eligibilityType. */
  type: string[];
  /** `income`: the household tiers whose query matches this record. */
  income: string[];
  /** `project`: canonical project types; the gateway resolves aliases to these. */
  project: string[];
  /**
   * `special`: the record's populations, or null when it has no restriction, which matches every value:
   * spec 4.3 makes no exception for a value outside the vocabulary, so no list of values could stand in.
   */
  special: string[] | null;
  category: string | null;
  status: FundingStatus;
}

/** Computes a record's facets from its corrected row. */
export function deriveProgramFacets(row: ProgramRow): ProgramFacets {
  const rank = classifyIncomeRequirement(row.incomeRequirement);
  const populations = row.specialPopulations ?? [];
  return {
    type: [...row.eligibilityType],
    income: INCOME_TIERS.filter((tier) => matchesIncomeFilter(rank, tier)),
    project: [...(row.projectTypes ?? [])],
    special: populations.length > 0 ? [...populations] : null,
    category: row.category ?? null,
    status: row.fundingStatus,
  };
}
