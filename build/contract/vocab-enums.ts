/** Closed value sets fixed by the service specification; one list each, unions derived from them. */

export const FUNDING_STATUSES = ['available', 'waitlist', 'closed', 'unknown'] as const;
export type FundingStatus = (typeof FUNDING_STATUSES)[number];

export const LINK_STATUSES = ['live', 'dead', 'bot-blocked', 'unchecked'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** Ordered strongest first, as spec 2.2 lists them. */
export const CONFIDENCE_TIERS = [
  'source-verified',
  'federal-canonical',
  'model-identity-reviewed',
  'link-verified',
  'link-resolves-unverified',
  'unverified',
] as const;
export type ConfidenceTier = (typeof CONFIDENCE_TIERS)[number];

export const CONTRACTOR_REQUIREMENTS = ['required', 'likely', 'none'] as const;
export type ContractorRequirement = (typeof CONTRACTOR_REQUIREMENTS)[number];

export const DISBURSEMENTS = [
  'reimbursement', 'forgivable-loan', 'voucher', 'point-of-sale', 'tax-benefit', 'rebate',
  'matching', 'deferred', 'direct-pay', 'lien', 'grant', 'loan', 'unknown',
] as const;
export type Disbursement = (typeof DISBURSEMENTS)[number];

export const REPAYMENTS = ['forgivable', 'rebate', 'loan', 'grant'] as const;
export type Repayment = (typeof REPAYMENTS)[number];

/** Income tiers, lowest household income first (HUD's very low, low and moderate bands, then no test). */
export const INCOME_TIERS = ['verylow', 'low', 'moderate', 'any'] as const;
export type IncomeTier = (typeof INCOME_TIERS)[number];

export const READINESS_CODES = ['READY', 'DATASET_CHECKOUT_NOT_READY'] as const;
export type ReadinessCode = (typeof READINESS_CODES)[number];

/** Change-event types this dataset emits (spec 6.4 leaves them to us). */
export const CHANGE_TYPES = [
  'program-added', 'program-removed', 'status-changed', 'amount-changed', 'link-status-changed', 'source-corrected',
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
