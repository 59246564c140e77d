import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { HealthTally, normalizedHost, normalizeName, type TalliedRecord } from '../../../build/derive/tally-health.ts';

const NAMES = ['Roof Repair Grant', ' roof  repair grant', 'ROOF REPAIR GRANT ', 'Weatherization', 'weatherization', 'Lead Safe Homes'];
const URLS = ['https://www.example.org/a', 'https://EXAMPLE.org/b', 'https://agency.example.gov/', 'not a url', null];
const CITIES = ['alpha', 'beta', 'gamma'];

const record = fc.record({
  city: fc.constantFrom(...CITIES),
  name: fc.constantFrom(...NAMES),
  url: fc.constantFrom(...URLS),
  exclusion: fc.constantFrom('served', 'served', 'quarantined', 'adjacent'),
});

/** The counts as the tally defines them, by sets. */
function reference(records: ReadonlyArray<{ city: string; name: string; url: string | null; exclusion: string }>) {
  const names = new Map<string, Set<string>>();
  const licensedNames = new Map<string, Set<string>>();
  const domains: Record<string, number> = {};
  const note = (map: Map<string, Set<string>>, name: string, city: string) => map.set(normalizeName(name), (map.get(normalizeName(name)) ?? new Set()).add(city));
  for (const { city, name, url, exclusion } of records) {
    note(names, name, city);
    if (exclusion !== 'served') continue;
    note(licensedNames, name, city);
    const host = normalizedHost(url);
    if (host) domains[host] = (domains[host] ?? 0) + 1;
  }
  const unique = (map: Map<string, Set<string>>) => [...map.values()].filter((cities) => cities.size === 1).length;
  return {
    measures: { distinct: names.size, locallyUnique: unique(names), licensedDistinct: licensedNames.size, licensedLocallyUnique: unique(licensedNames) },
    domains,
  };
}

describe('HealthTally', () => {
  it('counts distinct and locally unique names, and licensed domains, as sets of (name, city) and hosts define them', () => {
    fc.assert(fc.property(fc.array(record, { maxLength: 40 }), (records) => {
      const tally = new HealthTally();
      for (const { city, name, url, exclusion } of records) {
        tally.addCityRecord(city, {
          name, url, exclusion, pageClass: null,
          freshness: { linkStatus: 'unchecked', confidence: 'unverified', lastChecked: null },
        } as unknown as TalliedRecord);
      }
      const expected = reference(records);
      assert.deepEqual(tally.nameMeasures(), expected.measures);
      assert.deepEqual({ ...tally.licensedDomains }, expected.domains);
    }), { numRuns: 500 });
  });

  it('counts licensed records by who made their latest review, withheld ones not at all', () => {
    const tally = new HealthTally();
    const freshness = { linkStatus: 'live', confidence: 'model-identity-reviewed', lastChecked: '2026-11-01', sourceReviewed: true } as TalliedRecord['freshness'];
    const add = (reviewedBy: TalliedRecord['reviewedBy'], exclusion: TalliedRecord['exclusion'] = 'served') =>
      tally.addCityRecord('alpha', { name: `n${Math.random()}`, url: null, exclusion, pageClass: null, freshness, reviewedBy });
    add('model');
    add('model');
    add('person');
    add('unattributed');
    add(null);
    add('model', 'quarantined');
    assert.deepEqual(tally.reviewers, { model: 2, person: 1, unattributed: 1 });
  });
});
