import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { inferContractor, type ContractorText } from '../../../build/derive/infer-contractor.ts';
import type { Contractor } from '../../../build/derive/contractor-types.ts';

// Expected values list only what a row asserts; unlisted booleans are expected false, repayment absent.
type Expect = Partial<Contractor>;
const NAME = 'Home Program';

function expected(partial: Expect): Contractor {
  const { repayment, ...rest } = partial;
  return {
    requirement: 'none', disbursement: 'unknown', contractorRequired: false, fundsContractorWork: false,
    hasCashGap: false, ...(repayment === undefined ? {} : { repayment }), requiresBidToApply: false, ...rest,
  };
}

describe('inferContractor phrase table', () => {
  const rows: Array<[string, Expect]> = [
    ['Work must be performed by a licensed contractor.', { requirement: 'required', contractorRequired: true, fundsContractorWork: true }],
    ['Only approved contractors may perform the work.', { requirement: 'required', contractorRequired: true, fundsContractorWork: true }],
    ['A certified lead abatement contractor is required.', { requirement: 'required', contractorRequired: true, fundsContractorWork: true }],
    ['You must hire a state-registered home improvement contractor.', { requirement: 'required', contractorRequired: true, fundsContractorWork: true }],
    ['The city selects and hires a contractor to complete the repairs.', { requirement: 'required', contractorRequired: true, fundsContractorWork: true }],
    ['Contractors are assigned by the program after inspection.', { requirement: 'required', contractorRequired: true, fundsContractorWork: true }],
    ['Homeowners are reimbursed after the work is completed and inspected.', { disbursement: 'reimbursement', hasCashGap: true }],
    ['0% interest loan forgiven after 5 years of occupancy.', { disbursement: 'forgivable-loan', repayment: 'forgivable' }],
    ['Forgivable loan for roof replacement.', { requirement: 'likely', disbursement: 'forgivable-loan', repayment: 'forgivable' }],
    ['A lien is recorded against the property.', { disbursement: 'lien' }],
    ['Instant rebate at the register on ENERGY STAR appliances.', { disbursement: 'point-of-sale', repayment: 'rebate' }],
    ['Point-of-sale discount on a new heat pump water heater.', { disbursement: 'point-of-sale' }],
    ['Federal tax credit of 30%.', { disbursement: 'tax-benefit' }],
    ['Property tax abatement for rehabilitation of historic homes.', { disbursement: 'tax-benefit' }],
    ['Submit two contractor bids with your application.', { requiresBidToApply: true }],
    ['Applicants must obtain a written estimate before applying for the repair grant.', { requirement: 'likely', disbursement: 'grant', repayment: 'grant', requiresBidToApply: true }],
    ['Three quotes are required with your application.', { requiresBidToApply: true }],
    ['Deferred loan due upon sale of the home.', { disbursement: 'deferred', repayment: 'loan' }],
    ['Zero-interest deferred payment loan for furnace replacement.', { requirement: 'likely', disbursement: 'deferred', repayment: 'loan' }],
    ['The city pays the contractor directly.', { disbursement: 'direct-pay', fundsContractorWork: true }],
    ['Funds are paid directly to the contractor upon completion.', { disbursement: 'direct-pay', fundsContractorWork: true }],
    ['50% matching grant for facade improvements.', { disbursement: 'matching', repayment: 'grant' }],
    ['Dollar-for-dollar cost share up to $5,000.', { disbursement: 'matching' }],
    ['Grant.', { disbursement: 'grant', repayment: 'grant' }],
    ['Emergency repair grant; does not need to be repaid.', { requirement: 'likely', disbursement: 'grant', repayment: 'grant' }],
    ['Low-interest home improvement loan.', { disbursement: 'loan', repayment: 'loan' }],
    ['Weatherization assistance for insulation and air sealing.', { requirement: 'likely' }],
    ['Accessibility modifications such as ramps and grab bars.', { requirement: 'likely' }],
    ['Mail-in rebate after installation of a smart thermostat.', { disbursement: 'rebate', repayment: 'rebate', hasCashGap: true }],
    ['Vouchers for lead-safe window replacement.', { requirement: 'likely', disbursement: 'voucher' }],
    ['Free tool lending library for home projects.', {}],
    ['Homeowners may do the work themselves or hire help; materials grant for roof repairs.', { disbursement: 'grant', repayment: 'grant' }],
    ['Owners pay the full cost upfront and receive a rebate.', { disbursement: 'rebate', repayment: 'rebate', hasCashGap: true }],
    ['Counseling for homebuyers.', {}],
    ['Program covers the cost of a roofing contractor.', { requirement: 'likely', fundsContractorWork: true }],
  ];
  for (const [description, expect] of rows) {
    it(description, () => assert.deepEqual(inferContractor({ name: NAME, description }), expected(expect)));
  }
});

describe('inferContractor fields and precedence', () => {
  const rows: Array<[string, ContractorText, Expect]> = [
    ['reads a category slug with spaces', { name: 'Solar', category: 'tax-credit' }, { disbursement: 'tax-benefit' }],
    ['reads project-type slugs', { name: 'Help', projectTypes: ['lead-abatement'] }, { requirement: 'likely' }],
    ['a positive numeric matchRate counts as matching', { name: 'Facade grant', matchRate: 0.5 }, { disbursement: 'matching', repayment: 'grant' }],
    ['a textual matchRate with a digit counts', { name: 'Facade grant', matchRate: '1:1' }, { disbursement: 'matching', repayment: 'grant' }],
    ['matchRate 0, "none" and null do not', { name: 'Facade grant', matchRate: 'none' }, { disbursement: 'grant', repayment: 'grant' }],
    ['reads the amount label', { name: 'Repairs', maxAmountLabel: 'Up to $10,000 forgivable loan' }, { requirement: 'likely', disbursement: 'forgivable-loan', repayment: 'forgivable' }],
    ['tax benefit beats rebate', { name: 'Tax rebate', description: 'State tax credit and rebate.' }, { disbursement: 'tax-benefit', repayment: 'rebate' }],
    ['forgivable beats deferred and lien', { name: 'Deferred forgivable loan secured by a lien' }, { disbursement: 'forgivable-loan', repayment: 'forgivable' }],
    ['reimbursement beats grant', { name: 'Grant', description: 'Grant funds are reimbursed to the owner.' }, { disbursement: 'reimbursement', repayment: 'grant', hasCashGap: true }],
    ['loan beats grant', { name: 'Grant or loan for roofs' }, { requirement: 'likely', disbursement: 'loan', repayment: 'loan' }],
    ['required beats self-performed', { name: 'Repairs', description: 'Homeowners may do the work themselves. Electrical work must be done by a licensed electrical contractor.' }, { requirement: 'required', contractorRequired: true, fundsContractorWork: true }],
    ['required beats tax benefit', { name: 'Solar tax credit', description: 'Must be installed by a certified installer.' }, { requirement: 'required', disbursement: 'tax-benefit', contractorRequired: true, fundsContractorWork: true }],
    ['rules do not pair words across fields', { name: 'Licensed contractor list', description: 'Required documents: ID.' }, {}],
    ['case-insensitive', { name: 'FORGIVABLE LOAN' }, { disbursement: 'forgivable-loan', repayment: 'forgivable' }],
    ['word-bounded: "grantee" is not "grant"', { name: 'Grantee services' }, {}],
  ];
  for (const [name, text, expect] of rows) {
    it(name, () => assert.deepEqual(inferContractor(text), expected(expect)));
  }

  it('emits keys in the spec order', () => {
    const result = inferContractor({ name: 'Deferred loan for roof repairs' });
    assert.deepEqual(Object.keys(result), [
      'requirement', 'disbursement', 'contractorRequired', 'fundsContractorWork', 'hasCashGap', 'repayment', 'requiresBidToApply',
    ]);
  });
});

describe('anyMatch (each rule set as one alternation)', () => {
  it('answers what testing the rules one by one answers, on text made of the rules\' own phrases', async () => {
    const { default: fc } = await import('fast-check');
    const { anyMatch } = await import('../../../build/derive/infer-contractor.ts');
    const { contractorRules } = await import('../../../build/derive/contractor-rules.ts');
    const sets = Object.values(contractorRules) as ReadonlyArray<ReadonlyArray<{ pattern: RegExp }>>;
    // Words and fragments of every pattern, so generated text hits rules often and near-misses too.
    const words = [...new Set(sets.flat().flatMap((rule) => rule.pattern.source.replace(/\\[bsdw]|[()?:|*+\[\]{}^$\\]/g, ' ').split(/\s+/)).filter((word) => word.length > 1))];
    const prose = fc.array(fc.oneof(fc.constantFrom(...words), fc.constantFrom(' ', '. ', ', ', '-', 'Contractor', 'DIY')), { maxLength: 12 }).map((parts) => parts.join(' '));
    let hits = 0;
    fc.assert(fc.property(prose, fc.integer({ min: 0, max: sets.length - 1 }), (text, index) => {
      const rules = sets[index] ?? [];
      const expected = rules.some((rule) => rule.pattern.test(text));
      if (expected) hits += 1;
      return anyMatch(rules as never, text) === expected;
    }), { numRuns: 3000 });
    assert.ok(hits > 100, `${hits} of 3000 texts matched a rule`);
    assert.equal(anyMatch([], 'anything'), false);
  });
});
