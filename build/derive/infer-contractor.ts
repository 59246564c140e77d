/** Infers a record's spec 2.3 `contractor` object from its English text with the phrase rules of contractor-rules.ts. */
import type { ContractorRequirement, Disbursement } from '../contract/vocab-enums.ts';
import type { Contractor } from './contractor-types.ts';
import { contractorRules, ruleSetNeeds, type PhraseRule } from './contractor-rules.ts';

/** The English fields the inference reads; Spanish variants are translations and add no signal. */
export interface ContractorText {
  name: string;
  description?: string;
  category?: string;
  maxAmountLabel?: string;
  matchRate?: number | string | null;
  projectTypes?: readonly string[];
}

/** Disbursements that pay out without any construction work being contracted. */
const NO_CONTRACTOR_DISBURSEMENTS: readonly Disbursement[] = ['tax-benefit', 'point-of-sale'];

/**
 * Classifies how a contractor is involved and how the money flows.
 *
 * - `requirement`, first match wins: `required` when a contractorRequired rule matches (the text says a
 *   licensed/approved/certified contractor must be used, or the program hires or assigns one); `none`
 *   when the disbursement is a tax benefit or point of sale, or the text allows DIY, self-help or tool
 *   lending; `likely` when the text names construction-type work; otherwise `none`.
 * - `disbursement`: first matching rule of contractorRules.disbursement (precedence documented there),
 *   `unknown` when none matches. A stored positive matchRate counts as the word "matching".
 * - Booleans are measured signals (true only when the text states it); contractorRequired equals
 *   requirement `required`; fundsContractorWork is also true for a required contractor or direct pay.
 * - `repayment` is emitted only when a repayment rule matches.
 *
 * Fields are joined as separate sentences so a rule never pairs words from two fields; category and
 * project-type slugs are read with their hyphens as spaces ("tax-credit" reads "tax credit").
 */
export function inferContractor(text: ContractorText): Contractor {
  const prose = readableText(text);
  const disbursement = firstValue(contractorRules.disbursement, prose) ?? 'unknown';
  const contractorRequired = anyMatch(contractorRules.contractorRequired, prose);
  const requirement = chooseRequirement(contractorRequired, disbursement, prose);
  const repayment = firstValue(contractorRules.repayment, prose);
  return {
    requirement,
    disbursement,
    contractorRequired,
    fundsContractorWork: contractorRequired || disbursement === 'direct-pay' || anyMatch(contractorRules.fundsContractorWork, prose),
    hasCashGap: anyMatch(contractorRules.cashGap, prose),
    ...(repayment === undefined ? {} : { repayment }),
    requiresBidToApply: anyMatch(contractorRules.bidToApply, prose),
  };
}

function chooseRequirement(contractorRequired: boolean, disbursement: Disbursement, prose: string): ContractorRequirement {
  if (contractorRequired) return 'required';
  if (NO_CONTRACTOR_DISBURSEMENTS.includes(disbursement) || anyMatch(contractorRules.selfPerformed, prose)) return 'none';
  return anyMatch(contractorRules.construction, prose) ? 'likely' : 'none';
}

function readableText(text: ContractorText): string {
  const slugs = [text.category, ...(text.projectTypes ?? [])].map((slug) => slug?.replaceAll('-', ' '));
  const parts = [text.name, text.description, text.maxAmountLabel, ...slugs];
  if (hasMatchRate(text.matchRate)) parts.push('matching');
  return parts.filter((part): part is string => part !== undefined && part.trim() !== '').join('. ');
}

/** A number above zero, or text with a non-zero digit ("50%", "1:1"); "none" and 0 are no signal. */
function hasMatchRate(matchRate: ContractorText['matchRate']): boolean {
  if (typeof matchRate === 'number') return matchRate > 0;
  return typeof matchRate === 'string' && /[1-9]/.test(matchRate);
}

function firstValue<T>(rules: readonly PhraseRule<T>[], prose: string): T | undefined {
  // Most text matches no rule of a set: one pass of the set's union rules that out before the ordered walk.
  if (!anyMatch(rules, prose)) return undefined;
  return rules.find((rule) => rule.pattern.test(prose))?.value;
}

// Each rule set as one alternation: one regex pass over the text instead of one per rule, which was a
// tenth of the build's time (issue 6 profile). Same answer as testing the rules one by one, because every
// rule is a plain case-insensitive pattern without backreferences (checked when the union is built).
const unions = new WeakMap<readonly PhraseRule<unknown>[], RegExp | null>();

/** True when any rule of the set matches `prose`, in one regex pass when the set allows it. */
export function anyMatch(rules: readonly PhraseRule<unknown>[], prose: string): boolean {
  if (rules.length === 0) return false;
  // A word the whole set needs is absent: no rule can match (contractor-rules.ts, ruleSetNeeds).
  if (ruleSetNeeds.get(rules)?.test(prose) === false) return false;
  let union = unions.get(rules);
  if (union === undefined) {
    const plain = rules.every((rule) => rule.pattern.flags === 'i' && !/\\[1-9]|\\k</.test(rule.pattern.source));
    union = plain ? new RegExp(rules.map((rule) => `(?:${rule.pattern.source})`).join('|'), 'i') : null;
    unions.set(rules, union);
  }
  return union === null ? rules.some((rule) => rule.pattern.test(prose)) : union.test(prose);
}
