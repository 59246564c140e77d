/**
 * The phrase rules inferContractor applies, as data: each is a case-insensitive, word-bounded pattern and
 * the effect it has. Lists are ordered; where one value must be chosen, the first matching rule wins.
 * `[^.;]*` keeps a rule inside one sentence or clause, so words from unrelated sentences never pair up.
 */
import type { Disbursement, Repayment } from '../contract/vocab-enums.ts';

const CONTRACTOR = String.raw`(?:contractors?|installers?|vendors?|builders?)`;
const VETTED = String.raw`(?:licensed|approved|certified|registered|qualified|participating|pre-?qualified|eligible|program)`;
const BID = String.raw`(?:bids?|estimates?|quotes?)`;

/** One rule: a phrase pattern and the value it selects. */
export interface PhraseRule<T> {
  pattern: RegExp;
  value: T;
}

const rule = <const T>(source: string, value: T): PhraseRule<T> => ({ pattern: new RegExp(source, 'i'), value });

/** All rule tables of the contractor inference, ordered where order decides. */
export const contractorRules = {
  /**
   * Disbursement, first match wins. Most specific mechanism first: a tax benefit or a point-of-sale
   * discount says how money arrives even when the text also says "rebate" or "credit"; a forgivable or
   * deferred loan is still a loan, so those precede lien and plain loan; direct pay and matching describe
   * how a grant flows, so they precede grant; loan precedes grant because repayment matters more.
   */
  disbursement: [
    rule(String.raw`\btax (?:credits?|deductions?|abatements?|exemptions?|incentives?|benefits?|freeze)\b`, 'tax-benefit'),
    rule(String.raw`\bpoint[- ]of[- ]sale\b|\binstant (?:rebates?|discounts?|savings)\b|\bat (?:the register|checkout)\b`, 'point-of-sale'),
    rule(String.raw`\bforgiv(?:e|en|es|able|eness)\b`, 'forgivable-loan'),
    rule(String.raw`\bdeferred\b|\b(?:due|payable|repaid) (?:up)?on (?:the )?(?:sale|transfer)\b`, 'deferred'),
    rule(String.raw`\bliens?\b`, 'lien'),
    rule(String.raw`\breimburs(?:e|ed|es|ing|ement|ements)\b`, 'reimbursement'),
    rule(String.raw`\bvouchers?\b|\bcoupons?\b`, 'voucher'),
    rule(String.raw`\bpaid directly to (?:the )?${CONTRACTOR}|\bpays? (?:the )?${CONTRACTOR} directly\b|\bdirect payments? to (?:the )?${CONTRACTOR}`, 'direct-pay'),
    rule(String.raw`\bmatching\b|\bmatch(?:ing)? (?:grants?|funds?)\b|\bdollar[- ]for[- ]dollar\b|\bcost[- ]shar(?:e|ed|ing)\b`, 'matching'),
    rule(String.raw`\brebates?\b`, 'rebate'),
    rule(String.raw`\bloans?\b`, 'loan'),
    rule(String.raw`\bgrants?\b`, 'grant'),
  ] satisfies readonly PhraseRule<Disbursement>[],

  /** Repayment, first match wins; explicit "no repayment" wording precedes the loan words it contains. */
  repayment: [
    rule(String.raw`\bforgiv(?:e|en|es|able|eness)\b`, 'forgivable'),
    rule(String.raw`\bno repayment\b|\b(?:not|never) (?:need to |have to |required to )?be repaid\b|\bdoes not (?:need to |have to )?be repaid\b`, 'grant'),
    rule(String.raw`\bloans?\b|\brepay(?:ment|able)?\b|\b(?:due|payable|repaid) (?:up)?on (?:the )?(?:sale|transfer)\b|\bdeferred payment\b`, 'loan'),
    rule(String.raw`\brebates?\b`, 'rebate'),
    rule(String.raw`\bgrants?\b`, 'grant'),
  ] satisfies readonly PhraseRule<Repayment>[],

  /** A licensed/approved contractor must be used, or the program itself hires or assigns one. */
  contractorRequired: [
    rule(String.raw`\b(?:must|shall|required|requires?|only)\b[^.;]*\b${VETTED}(?:[\s-]+[\w-]+){0,3}?\s+${CONTRACTOR}`, true),
    rule(String.raw`\b${VETTED}(?:[\s-]+[\w-]+){0,3}?\s+${CONTRACTOR}\b[^.;]*\b(?:must|required|is required|only)\b`, true),
    rule(String.raw`\b(?:program|city|county|agency|department|staff|authority|we)\b[^.;]*\b(?:hires?|selects?|assigns?|procures?|arranges?)\b[^.;]*\b${CONTRACTOR}`, true),
    rule(String.raw`\b${CONTRACTOR}\b[^.;]*\b(?:selected|hired|assigned|procured|arranged) by (?:the )?(?:program|city|county|agency|department|staff|authority)\b`, true),
  ] satisfies readonly PhraseRule<true>[],

  /** Text ties a contractor to paid or funded work. */
  fundsContractorWork: [
    rule(String.raw`\b(?:pays?|paid|payments?|funds?|funded|covers?|invoices?)\b[^.;]*\b${CONTRACTOR}`, true),
    rule(String.raw`\b${CONTRACTOR}\b[^.;]*\b(?:paid|payments?|invoices?)\b`, true),
  ] satisfies readonly PhraseRule<true>[],

  /** Homeowner pays first and is reimbursed or rebated afterwards. */
  cashGap: [
    rule(String.raw`\breimburs(?:e|ed|es|ing|ement|ements)\b`, true),
    rule(String.raw`\bfront (?:the )?costs?\b|\bpays? (?:the )?(?:full )?costs? (?:up ?front|first)\b|\bpay up ?front\b`, true),
    rule(String.raw`\bmail[- ]in rebates?\b|\brebates?\b[^.;]*\bafter (?:the )?(?:purchase|installation|work)\b`, true),
  ] satisfies readonly PhraseRule<true>[],

  /** A contractor bid, estimate or quote must accompany the application. */
  bidToApply: [
    rule(String.raw`\b(?:submit|attach|include|upload)\b[^.;]*\b${BID}\b`, true),
    rule(String.raw`\b${BID}\b[^.;]*\b(?:required|must be submitted|must accompany|with (?:your|the) application)\b`, true),
    rule(String.raw`\b(?:applicants?|homeowners?|you)\b[^.;]*\b(?:must|need to|are required to)\b[^.;]*\b(?:obtain|get|provide)\b[^.;]*\b${BID}\b`, true),
  ] satisfies readonly PhraseRule<true>[],

  /** Work the homeowner may do without a contractor: DIY, self-help, tool lending. */
  selfPerformed: [
    rule(String.raw`\bdiy\b|\bdo[- ]it[- ]yourself\b|\bself[- ]help\b|\btool[- ](?:lending|library|loans?)\b|\blends? tools\b`, true),
    rule(String.raw`\b(?:may|can|allowed to)\b[^.;]*\b(?:do|perform|complete|install)\b[^.;]*\b(?:themselves|yourself|own labor)\b`, true),
  ] satisfies readonly PhraseRule<true>[],

  /** Construction-type work, where a contractor is likely even when the text is silent. */
  construction: [
    rule(String.raw`\broof(?:s|ing)?\b|\bfurnaces?\b|\bboilers?\b|\bhvac\b|\bheat pumps?\b|\bwater heaters?\b|\bplumbing\b|\belectrical\b|\bsewer\b|\bseptic\b|\bfoundations?\b|\bsiding\b`, true),
    rule(String.raw`\brehab(?:s|ilitation)?\b|\brepairs?\b|\brenovations?\b|\bremodel(?:ing)?\b|\babatement\b|\blead[- ](?:hazard|paint|based)\b`, true),
    rule(String.raw`\bweatheriz(?:ation|e|ing)\b|\binsulation\b|\bwindows? replacement\b|\breplacement windows?\b|\baccessibility\b|\bramps?\b|\bgrab bars?\b|\bhome modifications?\b`, true),
  ] satisfies readonly PhraseRule<true>[],
} as const;

/**
 * For the costliest rule sets, a word every rule of the set needs outside any optional part (the rules
 * above are written with these same constants): text without it matches none of the set's rules, so the
 * set's patterns, which scan each clause from every keyword, are not run (BENCHMARKS.md, issue 25, goal 2,
 * second round). Case-insensitive and without word boundaries, so it is found wherever a rule could match.
 */
export const ruleSetNeeds: ReadonlyMap<readonly PhraseRule<unknown>[], RegExp> = new Map<readonly PhraseRule<unknown>[], RegExp>([
  [contractorRules.contractorRequired, new RegExp(CONTRACTOR, 'i')],
  [contractorRules.fundsContractorWork, new RegExp(CONTRACTOR, 'i')],
  [contractorRules.bidToApply, new RegExp(BID, 'i')],
  // Each alternative of the first rule, and the second rule's last group.
  [contractorRules.selfPerformed, /diy|do[- ]it[- ]yourself|self[- ]help|tool|lends? tools|themselves|yourself|own labor/i],
]);
