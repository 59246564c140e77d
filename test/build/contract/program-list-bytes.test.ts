/** Hand-assembled program-list bytes against the published envelope schema: valid, and in its member order. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { programListBytes, programListBytesOfJoined, SCOPE_LICENSED_CITY, SCOPE_NATIONAL, SCOPE_SAMPLE, type ProgramListHead } from '../../../build/contract/program-list-bytes.ts';
import { envelopeLinks } from '../../../build/contract/envelope-links.ts';
import { programListSchema, type ProgramList } from '../../../build/contract/program-list-schema.ts';
import { createAjv } from '../../../build/corpus/create-ajv.ts';

const validate = createAjv().compile(programListSchema);
const revision = `gm1-${'ab'.repeat(32)}`;
const record = (id: string) => Buffer.from(`{"id":${JSON.stringify(id)},"name":"Roof repair","source":"City of Alpha","eligibilityType":["grant"],"fundingStatus":"available","url":null}`);
const head: ProgramListHead = { city: 'alpha', datasetRevision: revision, excludedBySafetyPolicy: 2, exclusionPolicyVersion: 1, scope: SCOPE_LICENSED_CITY };

describe('programListBytes', () => {
  const cases: Array<{ name: string; head: ProgramListHead; bodies: Buffer[] }> = [
    { name: 'a city with records', head, bodies: [record('a-roof'), record('a-heat')] },
    { name: 'an empty city', head, bodies: [] },
    { name: 'the national layer', head: { ...head, city: 'national', scope: SCOPE_NATIONAL }, bodies: [record('n-1')] },
    { name: 'the keyless sample', head: { ...head, sample: true, scope: SCOPE_SAMPLE }, bodies: [record('a-roof')] },
    { name: 'a city with links', head: { ...head, links: envelopeLinks('https://api.example.org/hra') }, bodies: [record('a-roof')] },
    { name: 'the sample with links', head: { ...head, links: envelopeLinks('https://api.example.org/'), sample: true, scope: SCOPE_SAMPLE }, bodies: [] },
  ];
  for (const { name, head: given, bodies } of cases) {
    it(`is a valid ProgramList in schema member order: ${name}`, () => {
      const body = JSON.parse(programListBytes(given, bodies).toString('utf8')) as ProgramList;
      assert.ok(validate(body), JSON.stringify(validate.errors));
      const order = Object.keys(programListSchema.properties);
      const keys = Object.keys(body);
      assert.deepEqual(keys, order.filter((key) => keys.includes(key)));
      assert.equal(body.count, bodies.length);
      assert.deepEqual(body.programs.map((program) => program.id), bodies.map((bytes) => (JSON.parse(bytes.toString('utf8')) as { id: string }).id));
      assert.equal(body.sample, given.sample);
      assert.equal(body.scope, given.scope);
      assert.equal(body.docs, given.links?.docs);
      assert.equal(body.openapi, given.links?.openapi);
    });

    it(`is the same bytes from the bodies joined beforehand: ${name}`, () => {
      const joined = Buffer.from(bodies.map((bytes) => bytes.toString('utf8')).join(','), 'utf8');
      assert.ok(programListBytesOfJoined(given, bodies.length, joined).equals(programListBytes(given, bodies)));
    });
  }
});

describe('envelopeLinks', () => {
  it('hangs /docs and /openapi.json from the base, with or without its final slash', () => {
    assert.deepEqual(envelopeLinks('https://api.example.org'), { docs: 'https://api.example.org/docs', openapi: 'https://api.example.org/openapi.json' });
    assert.deepEqual(envelopeLinks('https://api.example.org/'), { docs: 'https://api.example.org/docs', openapi: 'https://api.example.org/openapi.json' });
    assert.deepEqual(envelopeLinks('http://127.0.0.1:8080/hra/'), { docs: 'http://127.0.0.1:8080/hra/docs', openapi: 'http://127.0.0.1:8080/hra/openapi.json' });
  });
});
