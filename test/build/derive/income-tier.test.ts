import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { classifyIncomeRequirement, matchesIncomeFilter, type IncomeRank } from '../../../build/derive/income-tier.ts';

describe('classifyIncomeRequirement', () => {
  const rows: Array<[string | undefined, IncomeRank]> = [
    ['verylow', 'verylow'],
    ['low', 'low'],
    ['Moderate', 'moderate'],
    [' any ', 'any'],
    ['Very Low', 'verylow'],
    [undefined, 'unparsed'],
    ['', 'unparsed'],
    ['   ', 'unparsed'],
    ['Household income at or below 80% of Area Median Income (AMI)', 'low'],
    ['Income must not exceed 50% AMI', 'verylow'],
    ['at or below 30% of area median income', 'verylow'],
    ['Up to 120% AMI', 'moderate'],
    ['Households earning up to 140% of AMI', 'any'],
    ['80% AMFI or below', 'low'],
    ['Below 60 percent of HUD Area Median Family Income (HAMFI)', 'low'],
    ['Gross household income at or below 80% of the median family income for the county', 'low'],
    ['60% of State Median Income (SMI)', 'low'],
    ['Income at or below 200% of the Federal Poverty Level', 'low'],
    ['Up to 100% FPL', 'verylow'],
    ['Household income under 150% of federal poverty guidelines', 'low'],
    ['250% of the poverty guidelines', 'moderate'],
    ['At or below 400% FPL', 'any'],
    ['Priority to households under 50% AMI; households up to 80% AMI eligible', 'low'],
    ['50%, 60% or 80% of area median income depending on unit', 'low'],
    ['Below 60% AMI or 200% FPL, whichever is higher', 'low'],
    ['Seniors: 300% FPL. Others: 80% AMI', 'moderate'],
    ['AMI: 50%; FPL: 250%', 'moderate'],
    ['Income limit: 80%', 'unparsed'],
    ['No income limits', 'any'],
    ['There is no income requirement for this program.', 'any'],
    ['Open to all income levels', 'any'],
    ['Available regardless of income', 'any'],
    ['Income limits: none', 'any'],
    ['Low-income homeowners', 'unparsed'],
    ['Household income below $65,000', 'unparsed'],
    ['See HUD income limits', 'unparsed'],
    ['Must meet program income guidelines', 'unparsed'],
    ['No limit on the number of applications; 80% AMI', 'low'],
  ];
  for (const [text, expected] of rows) {
    it(`${JSON.stringify(text)} -> ${expected}`, () => assert.equal(classifyIncomeRequirement(text), expected));
  }
});

describe('matchesIncomeFilter', () => {
  // Rows: record rank; columns: the household tiers it matches, in the order verylow, low, moderate, any.
  const matrix: Array<[IncomeRank, [boolean, boolean, boolean, boolean]]> = [
    ['verylow', [true, false, false, false]],
    ['low', [true, true, false, false]],
    ['moderate', [true, true, true, false]],
    ['any', [true, true, true, true]],
    ['unparsed', [true, true, true, true]],
  ];
  const queries = ['verylow', 'low', 'moderate', 'any'] as const;
  for (const [rank, row] of matrix) {
    queries.forEach((query, column) => {
      it(`${rank} record ${row[column] ? 'matches' : 'does not match'} income=${query}`, () => {
        assert.equal(matchesIncomeFilter(rank, query), row[column]);
      });
    });
  }

  const unknownQueries = ['', 'medium', 'very low', 'unparsed', '80'];
  for (const query of unknownQueries) {
    it(`unknown query ${JSON.stringify(query)} matches nothing`, () => {
      for (const [rank] of matrix) assert.equal(matchesIncomeFilter(rank, query), false);
    });
  }

  it('reads the query case-insensitively and trimmed', () => {
    assert.equal(matchesIncomeFilter('moderate', ' LOW '), true);
  });
});
