import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { resolveProjectQuery } from '../../../build/derive/project-aliases.ts';
import type { Vocabularies } from '../../../build/corpus/corpus-types.ts';

// Typed as the corpus file so the test also proves the loaded vocabularies can be passed as they are.
const vocab: Vocabularies = {
  categories: [],
  eligibilityTypes: [],
  specialPopulations: [],
  projectTypes: ['roof', 'hvac', 'lead-abatement', 'accessibility', 'weatherization'],
  projectAliases: {
    roofing: 'roof',
    furnace: 'hvac',
    'heat-pump': 'hvac',
    lead: 'lead-abatement',
    ramp: 'accessibility',
    weatherproofing: 'weatherization',
    hvac: 'roof', // a canonical spelling shadowed by a (bad) alias: the canonical type must win
    solar: 'solar-panels', // points outside projectTypes
  },
};

describe('resolveProjectQuery', () => {
  const rows: Array<[string, string | undefined]> = [
    ['roof', 'roof'],
    ['ROOF', 'roof'],
    ['  roof  ', 'roof'],
    ['lead-abatement', 'lead-abatement'],
    ['roofing', 'roof'],
    ['Furnace', 'hvac'],
    [' heat-pump ', 'hvac'],
    ['lead', 'lead-abatement'],
    ['ramp', 'accessibility'],
    ['hvac', 'hvac'],
    ['solar', undefined],
    ['solar-panels', undefined],
    ['heat pump', undefined],
    ['', undefined],
    ['   ', undefined],
    ['windows', undefined],
    ['constructor', undefined],
    ['__proto__', undefined],
    ['toString', undefined],
  ];
  for (const [query, expected] of rows) {
    it(`${JSON.stringify(query)} -> ${expected ?? 'undefined'}`, () => assert.equal(resolveProjectQuery(query, vocab), expected));
  }

  it('works with empty vocabularies', () => {
    assert.equal(resolveProjectQuery('roof', { projectTypes: [], projectAliases: {} }), undefined);
  });
});
