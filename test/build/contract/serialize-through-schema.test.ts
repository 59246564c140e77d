import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { changeEventSchema } from '../../../build/contract/change-feed-schema.ts';
import { cityWithCountSchema, citySchema } from '../../../build/contract/city-schema.ts';
import { healthSchema } from '../../../build/contract/health-schema.ts';
import { exportRowSchema, programSchema } from '../../../build/contract/program-schema.ts';
import { readinessSchema } from '../../../build/contract/readiness-schema.ts';
import { pickThroughSchema, serializeThroughSchema } from '../../../build/contract/serialize-through-schema.ts';

const SCHEMAS = { programSchema, exportRowSchema, citySchema, cityWithCountSchema, changeEventSchema, healthSchema, readinessSchema };

type Schema = { properties?: Record<string, unknown> };

/** Objects with some of the schema's properties (nested ones recursively), any JSON values, and keys it does not publish. */
function objectFor(schema: Schema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const members: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const nested = property as Schema;
    members[key] = nested.properties !== undefined && depth < 3 ? fc.oneof(objectFor(nested, depth + 1), fc.jsonValue({ maxDepth: 2 })) : fc.jsonValue({ maxDepth: 2 });
  }
  return fc.tuple(fc.record(members, { requiredKeys: [] }), fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), fc.boolean())
    .map(([published, extra, extraFirst]) => (extraFirst ? { ...extra, ...published } : { ...published, ...extra }));
}

describe('serializeThroughSchema', () => {
  it('keeps only published properties, in schema order, recursively', () => {
    const text = serializeThroughSchema(programSchema, {
      url: null, fundingStatus: 'available', internalNote: 'secret', id: 'x', scope: 'adjacent', name: 'N', source: 'S',
      eligibilityType: ['homeowner'], freshness: { confidence: 'unverified', linkStatus: 'unchecked', extra: 1 },
      contractor: { disbursement: 'grant', requirement: 'likely' },
    });
    assert.equal(text, '{"id":"x","name":"N","source":"S","eligibilityType":["homeowner"],"fundingStatus":"available","url":null,'
      + '"contractor":{"requirement":"likely","disbursement":"grant"},"freshness":{"linkStatus":"unchecked","confidence":"unverified"}}');
  });

  it('produces the same bytes whatever the input key order', () => {
    const a = serializeThroughSchema(programSchema, { id: 'a', name: 'n', source: 's', eligibilityType: [], fundingStatus: 'closed', url: 'https://x.example.org/', maxAmount: 5 });
    const b = serializeThroughSchema(programSchema, { maxAmount: 5, url: 'https://x.example.org/', fundingStatus: 'closed', eligibilityType: [], source: 's', name: 'n', id: 'a' });
    assert.equal(a, b);
  });

  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`writes the text JSON.stringify writes of the picked copy, for any value (${name})`, () => {
      fc.assert(fc.property(objectFor(schema), (value) => {
        assert.equal(serializeThroughSchema(schema, value), JSON.stringify(pickThroughSchema(schema, value)));
      }), { numRuns: 300 });
    });
  }

  it('writes a schema with an integer-like property name as JSON.stringify orders it', () => {
    const schema = { properties: { b: {}, 10: {}, a: {}, 2: {} } };
    const value = { a: 1, b: 2, 2: 3, 10: 4 };
    assert.equal(serializeThroughSchema(schema, value), JSON.stringify(pickThroughSchema(schema, value)));
    assert.equal(serializeThroughSchema(schema, value), '{"2":3,"10":4,"b":2,"a":1}');
  });
});
