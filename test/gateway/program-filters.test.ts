/** Program collection filters (spec 4.3) over real HTTP: exact cases on the fixture, and AND = intersection. */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { GENEROUS_LIMITS, startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import type { ProgramList } from '../../build/contract/program-list-schema.ts';

describe('program filters', () => {
  let gateway: TestGateway;
  const list = async (path: string): Promise<ProgramList> => {
    const response = await gateway.get(path, { key: gateway.keys.commercial });
    assert.equal(response.status, 200, path);
    return (await response.json()) as ProgramList;
  };
  const ids = (body: ProgramList) => body.programs.map((program) => program.id);

  before(async () => {
    gateway = await startTestGateway({ limits: GENEROUS_LIMITS });
  });
  after(async () => {
    await gateway.close();
  });

  // Expected ids and withheld counts worked out by hand from test/fixtures/mini-corpus.
  const cases: Array<[string, string[], number]> = [
    ['/api/programs/alpha', ['a-furnace', 'a-lead', 'a-ramp', 'a-roof'], 2],
    ['/api/programs/alpha?income=low', ['a-furnace', 'a-lead', 'a-ramp', 'a-roof'], 2],
    ['/api/programs/alpha?income=moderate', ['a-lead', 'a-ramp'], 2],
    ['/api/programs/alpha?income=any', ['a-lead', 'a-ramp'], 2],
    ['/api/programs/alpha?income=rich', [], 0],
    ['/api/programs/alpha?special=seniors', ['a-furnace', 'a-lead', 'a-ramp', 'a-roof'], 2],
    ['/api/programs/alpha?special=veterans', ['a-furnace', 'a-lead'], 2],
    // Spec 4.3: records with no stored population restriction match any value, one outside the vocabulary
    // included; records restricted to other groups do not, and the withheld unrestricted ones are counted.
    ['/api/programs/alpha?special=astronauts', ['a-furnace', 'a-lead'], 2],
    ['/api/programs/beta?special=astronauts', ['b-weather', 'state-loan'], 0],
    ['/api/programs/gamma?special=astronauts', ['g-grant'], 1],
    ['/api/programs/alpha?special=astronauts&category=home-repair', ['a-lead'], 1],
    ['/api/programs/alpha?project=heating-cooling', ['a-furnace'], 0],
    ['/api/programs/alpha?project=hvac', ['a-furnace'], 0],
    ['/api/programs/alpha?project=FURNACE', ['a-furnace'], 0],
    ['/api/programs/alpha?project=general-repair', [], 1],
    ['/api/programs/alpha?project=jacuzzi', [], 0],
    ['/api/programs/alpha?type=renter', ['a-ramp'], 1],
    ['/api/programs/alpha?type=Renter', [], 0],
    ['/api/programs/alpha?category=energy', ['a-furnace'], 0],
    ['/api/programs/alpha?status=closed', ['a-ramp'], 0],
    ['/api/programs/alpha?status=available&category=home-repair', ['a-roof'], 1],
    ['/api/programs/alpha?type=homeowner&income=verylow&special=disabled&project=ramp', ['a-ramp'], 0],
    ['/api/programs/alpha?status=', ['a-furnace', 'a-lead', 'a-ramp', 'a-roof'], 2],
    ['/api/programs/beta?income=verylow', ['b-repair', 'b-weather', 'state-loan'], 0],
    ['/api/programs/beta?income=low', ['b-repair', 'state-loan'], 0],
    ['/api/programs/gamma', ['g-grant'], 1],
    ['/api/programs?category=energy', ['a-furnace'], 0],
    ['/api/programs/national?category=energy', ['doe-wap'], 0],
  ];
  for (const [path, expected, excluded] of cases) {
    it(`${path} -> [${expected.join(', ')}], ${excluded} withheld`, async () => {
      const body = await list(path);
      assert.deepEqual(ids(body), expected);
      assert.equal(body.count, expected.length);
      assert.equal(body.excludedBySafetyPolicy, excluded);
    });
  }

  it('serves a record with the same bytes in its collection and its detail route', async () => {
    const collection = await (await gateway.get('/api/programs/alpha', { key: gateway.keys.commercial })).text();
    const detail = await (await gateway.get('/api/programs/alpha/a-roof', { key: gateway.keys.commercial })).text();
    assert.ok(collection.includes(detail));
  });

  it('never serves corpus-internal keys', async () => {
    const collection = await (await gateway.get('/api/programs/alpha', { key: gateway.keys.commercial })).text();
    assert.ok(!collection.includes('internalNote'));
    assert.ok(!collection.includes('"scope":"adjacent"'));
  });

  it('answers a repeated filtered request (cache hit) with identical bytes', async () => {
    const path = '/api/programs/alpha?special=veterans&status=waitlist';
    const first = await (await gateway.get(path, { key: gateway.keys.commercial })).text();
    const second = await (await gateway.get(path, { key: gateway.keys.commercial })).text();
    assert.equal(first, second);
  });

  it('never answers a filter set with the collection cached for another', async () => {
    const all = ['a-furnace', 'a-lead', 'a-ramp', 'a-roof'];
    // An unknown project matches nothing, whatever else is asked; it shared the cache slot of "no project".
    assert.deepEqual(ids(await list('/api/programs/alpha?special=seniors&income=low')), all);
    assert.deepEqual(ids(await list('/api/programs/alpha?special=seniors&income=low&project=jacuzzi')), []);
    assert.deepEqual(ids(await list('/api/programs/alpha?special=disabled&project=jacuzzi')), []);
    assert.deepEqual(ids(await list('/api/programs/alpha?special=disabled')), ['a-furnace', 'a-lead', 'a-ramp']);
  });

  it('AND of filters equals the intersection of each filter alone (property)', async () => {
    const values = {
      type: ['homeowner', 'renter', 'landlord', 'nobody'],
      income: ['verylow', 'low', 'moderate', 'any', 'rich'],
      project: ['roof', 'hvac', 'heating-cooling', 'weatherization', 'accessibility', 'ramp', 'lead-abatement', 'general-repair', 'jacuzzi'],
      special: ['seniors', 'veterans', 'disabled', 'astronauts'],
      category: ['home-repair', 'energy', 'accessibility', 'utility-bill-assistance', 'none'],
      status: ['available', 'waitlist', 'closed', 'unknown'],
    } as const;
    const filterArbitrary = fc.record(
      Object.fromEntries(Object.entries(values).map(([name, options]) => [name, fc.constantFrom(...options)])) as { [K in keyof typeof values]: fc.Arbitrary<(typeof values)[K][number]> },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('alpha', 'beta', 'gamma', 'national'), filterArbitrary, async (city, filters) => {
        const query = (entries: Array<[string, string]>) => `/api/programs/${city}${entries.length ? `?${new URLSearchParams(entries).toString()}` : ''}`;
        const entries = Object.entries(filters) as Array<[string, string]>;
        const combined = await list(query(entries));
        const all = ids(await list(query([])));
        let expected = new Set(all);
        for (const entry of entries) {
          const single = new Set(ids(await list(query([entry]))));
          expected = new Set([...expected].filter((id) => single.has(id)));
        }
        assert.deepEqual(ids(combined), all.filter((id) => expected.has(id)));
        assert.equal(combined.count, combined.programs.length);
      }),
      { numRuns: 150 },
    );
  });
});
