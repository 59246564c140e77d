/**
 * Reads a record's stored income requirement as a ceiling on the spec 4.3 hierarchy
 * verylow < low < moderate < any, and decides which `income` queries it matches.
 */
import { INCOME_TIERS, type IncomeTier } from '../contract/vocab-enums.ts';

/** A record's income ceiling, or `unparsed` when its text states none we can read. */
export type IncomeRank = IncomeTier | 'unparsed';

type Basis = 'median' | 'poverty';

// HUD's bands: very low <= 50% of area median income, low <= 80%; moderate is the common 120% CDBG/HOME cut.
const MEDIAN_CEILINGS: ReadonlyArray<[number, IncomeTier]> = [[50, 'verylow'], [80, 'low'], [120, 'moderate']];
// The poverty guideline has no HUD band of its own. 100% FPL sits near 30-50% AMI, 200% FPL near the
// 60-80% AMI band (the cut LIHEAP and Weatherization use for "low income"), 300% near 120% AMI; these are
// approximations that vary by metro and household size.
const POVERTY_CEILINGS: ReadonlyArray<[number, IncomeTier]> = [[100, 'verylow'], [200, 'low'], [300, 'moderate']];

const NO_LIMIT = /\bno (?:income|maximum income) (?:limits?|requirements?|restrictions?|tests?|caps?|eligibility)\b|\bno limits? on income\b|\bincome (?:limits?|requirements?|restrictions?)\s*:\s*none\b|\b(?:all|any) incomes?(?: levels?)?\b|\bregardless of income\b|\bnot income[- ](?:based|restricted|tested)\b/i;
const MEDIAN = /\b(?:h?amfi|ami|mfi|smi)\b|\bmedian (?:family |household )?income\b/i;
const POVERTY = /\b(?:fpl|fpg)\b|\bpoverty (?:level|line|guidelines?|income guidelines?)\b|\bfederal poverty\b/i;
const PERCENT = /(\d{1,3}(?:\.\d+)?)\s*(?:%|percent\b)/gi;
// How far either side of a percentage to look for the basis it is "of" ("80% of the Area Median Income").
const BASIS_WINDOW = 60;

/**
 * Classifies stored `incomeRequirement` text.
 *
 * - Canonical `verylow`, `low`, `moderate`, `any` (any case, surrounding space, or "very low") map to themselves.
 * - "no income limit(s)/requirement/restriction/test", "all income levels", "regardless of income" -> `any`.
 * - Percentages of a median income (AMI, AMFI, HAMFI, MFI, SMI, "area/state median income", "median
 *   family/household income"): <=50 verylow, <=80 low, <=120 moderate, above any. Of the poverty
 *   guideline (FPL, FPG, "federal poverty level", "poverty guidelines"): <=100 verylow, <=200 low,
 *   <=300 moderate, above any. Each percentage takes the basis named right after it, else right before
 *   it, else the only basis the text names; several percentages -> the highest tier (the program admits
 *   households up to its highest stated ceiling).
 * - Anything else, including dollar limits (which depend on household size and place) -> `unparsed`.
 * - Missing or blank -> `unparsed`, not `any`: a row that states nothing has not shown there is no income
 *   test, for the same reason spec 2.1 warns that stored `any` is a sentinel rather than proof.
 */
export function classifyIncomeRequirement(text: string | undefined): IncomeRank {
  if (text === undefined) return 'unparsed';
  const canonical = text.trim().toLowerCase().replace(/^very[\s_-]+low$/, 'verylow');
  if (isIncomeTier(canonical)) return canonical;
  if (NO_LIMIT.test(text)) return 'any';
  const onlyBasis = MEDIAN.test(text) === POVERTY.test(text) ? undefined : MEDIAN.test(text) ? 'median' : 'poverty';
  let best: number | undefined;
  for (const match of text.matchAll(PERCENT)) {
    const percent = Number(match[1]);
    const start = match.index ?? 0;
    const end = start + match[0].length;
    const basis = basisOf(text.slice(end, end + BASIS_WINDOW), 'first')
      ?? basisOf(text.slice(Math.max(0, start - BASIS_WINDOW), start), 'last') ?? onlyBasis;
    if (basis === undefined || percent <= 0) continue;
    const rank = INCOME_TIERS.indexOf(tierFor(percent, basis));
    best = best === undefined ? rank : Math.max(best, rank);
  }
  return best === undefined ? 'unparsed' : (INCOME_TIERS[best] ?? 'unparsed');
}

/**
 * True when a record of this rank matches `income=<query>`, the query being the household's tier: the
 * record's ceiling must admit it (rank at or above the query), so `low` matches low, moderate and any
 * records, and `any` (a household no income test would admit) matches only `any` records. `unparsed`
 * matches every valid query, because a discovery tool must not hide a program whose text it could not
 * read; clients see the stored text. A query that is not one of the four tiers matches nothing, which
 * yields spec 4.3's valid empty collection.
 */
export function matchesIncomeFilter(rank: IncomeRank, query: string): boolean {
  const household = query.trim().toLowerCase();
  if (!isIncomeTier(household)) return false;
  if (rank === 'unparsed') return true;
  return INCOME_TIERS.indexOf(rank) >= INCOME_TIERS.indexOf(household);
}

function isIncomeTier(value: string): value is IncomeTier {
  return (INCOME_TIERS as readonly string[]).includes(value);
}

/**
 * The basis a window of text names. When it names both, the one nearest the percentage wins: the first
 * mention in a window after it, the last in a window before it.
 */
function basisOf(window: string, nearest: 'first' | 'last'): Basis | undefined {
  const median = mentionAt(MEDIAN, window, nearest);
  const poverty = mentionAt(POVERTY, window, nearest);
  if (median === undefined || poverty === undefined) return median !== undefined ? 'median' : poverty !== undefined ? 'poverty' : undefined;
  return (nearest === 'first' ? median < poverty : median > poverty) ? 'median' : 'poverty';
}

function mentionAt(pattern: RegExp, window: string, nearest: 'first' | 'last'): number | undefined {
  const indexes = [...window.matchAll(new RegExp(pattern.source, 'gi'))].map((match) => match.index ?? 0);
  return nearest === 'first' ? indexes[0] : indexes.at(-1);
}

function tierFor(percent: number, basis: Basis): IncomeTier {
  const ceilings = basis === 'median' ? MEDIAN_CEILINGS : POVERTY_CEILINGS;
  return ceilings.find(([limit]) => percent <= limit)?.[1] ?? 'any';
}
