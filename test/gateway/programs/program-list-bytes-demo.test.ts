/**
 * The hand-assembled program-list bytes (build/contract/program-list-bytes.ts: the build's unfiltered
 * collections and sample, the gateway's filtered ones) over the whole demo corpus: every program route the
 * gateway serves from it, unfiltered and filtered, is validated by ajv against the published ProgramList
 * schema and keeps the schema's member order, as does every record it lists against the Program schema.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { envelopeLinks } from '../../../build/contract/envelope-links.ts';
import { programListSchema, type ProgramList } from '../../../build/contract/program-list-schema.ts';
import type { CityList } from '../../../build/contract/city-schema.ts';
import { assertMatchesSchema } from '../../support/contract-validators.ts';
import { GENEROUS_LIMITS, startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';

const DEMO_CORPUS = 'corpus';

/** Filters that assemble a new envelope in the gateway (filter-collection.ts); one matches nothing. */
const FILTERS = ['', '?type=grant', '?income=low', '?type=loan&status=available', '?special=seniors', '?project=nothing-matches-this'];

const MEMBER_ORDER = Object.keys(programListSchema.properties);

/** The demo manifest names the quick start's address, so its envelopes link that gateway's /docs. */
const DEMO_LINKS = envelopeLinks((JSON.parse(readFileSync(join(DEMO_CORPUS, 'manifest.json'), 'utf8')) as { publicBaseUrl: string }).publicBaseUrl);

describe('program-list bytes over the demo corpus', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ corpus: DEMO_CORPUS, limits: GENEROUS_LIMITS });
  });
  after(() => gateway.close());

  const getJson = async (path: string, key?: string): Promise<unknown> => {
    const response = await gateway.get(path, { key });
    assert.equal(response.status, 200, path);
    return response.json();
  };

  it('serves every collection, filtered or not, and the sample as schema-valid envelopes in member order', async () => {
    const key = gateway.keys.commercial;
    const cities = await getJson('/api/cities', key) as CityList;
    assert.ok(cities.cities.length > 1, 'the demo corpus has several live cities');
    const paths = ['/api/programs', '/api/programs/national', ...cities.cities.map((city) => `/api/programs/${city.slug}`)];
    let records = 0;
    for (const path of paths) {
      for (const filter of FILTERS) {
        const body = await getJson(`${path}${filter}`, key) as ProgramList;
        assertMatchesSchema('programList', body, `${path}${filter}`);
        const members = Object.keys(body);
        assert.deepEqual(members, MEMBER_ORDER.filter((member) => members.includes(member)), `${path}${filter}: member order`);
        assert.equal(body.count, body.programs.length, `${path}${filter}: count`);
        assert.deepEqual({ docs: body.docs, openapi: body.openapi }, DEMO_LINKS, `${path}${filter}: links`);
        for (const program of body.programs) assertMatchesSchema('program', program, `${path}${filter} ${program.id}`);
        records += body.programs.length;
      }
    }
    assert.ok(records > 0, 'the walk saw records');
    const sample = await getJson('/api/sample') as ProgramList;
    assertMatchesSchema('programList', sample, '/api/sample');
    assert.equal(sample.sample, true);
    assert.deepEqual({ docs: sample.docs, openapi: sample.openapi }, DEMO_LINKS, '/api/sample: links');
    assert.deepEqual(Object.keys(sample), MEMBER_ORDER.filter((member) => member in sample), '/api/sample: member order');
  });
});
