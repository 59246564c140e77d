import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { programSchema } from '../../../build/contract/program-schema.ts';
import { serializeThroughSchema } from '../../../build/contract/serialize-through-schema.ts';

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
});
