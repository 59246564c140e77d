import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { programFieldProperties, programSchema } from '../../../build/contract/program-schema.ts';
import { linkCheckSchema, programFieldSchemas, programRowSchema, quoteCheckSchema } from '../../../build/corpus/corpus-schemas.ts';
import { createAjv } from '../../../build/corpus/create-ajv.ts';
import { describeFailures } from '../../../build/corpus/schema-validator.ts';

// Values of every JSON kind, and the edge cases the corpus constraints are about.
const PROBES: unknown[] = [
  null, true, 0, -1, 2.5, 1e9, '', 'a', 'ftp://x.example.org/', 'https://x.example.org/a', '-lead',
  'available', 'closed', 'waitlist', [], [''], ['a'], ['a', 'a'], ['a', 'b'], [1], {}, { a: 1 },
];

describe('corpus program schema', () => {
  it('has the served record\'s own fields, in the served order, and only internal fields beside them', () => {
    assert.deepEqual(Object.keys(programFieldSchemas), Object.keys(programFieldProperties));
    assert.deepEqual(
      Object.keys(programRowSchema.properties),
      [...Object.keys(programFieldProperties), 'scope', 'freshness', 'contractor'],
    );
    assert.deepEqual(Object.keys(programSchema.properties), [...Object.keys(programFieldProperties), 'contractor', 'freshness']);
    assert.deepEqual(programRowSchema.required, programSchema.required);
  });

  it('only narrows the served field types: every value a row may hold, the record may serve', () => {
    const ajv = createAjv();
    for (const [field, corpusSchema] of Object.entries(programFieldSchemas)) {
      const stored = ajv.compile(corpusSchema);
      const served = ajv.compile(programFieldProperties[field as keyof typeof programFieldProperties]);
      const accepted = PROBES.filter((value) => stored(value));
      for (const value of accepted) assert.ok(served(value), `${field}: the corpus accepts ${JSON.stringify(value)} but the served schema refuses it`);
      // Not vacuous: each field accepts some probe.
      assert.ok(accepted.length > 0, `${field} accepts none of the probes`);
    }
    const strictOnly = (field: keyof typeof programFieldSchemas, value: unknown) =>
      !ajv.compile(programFieldSchemas[field])(value) && ajv.compile(programFieldProperties[field])(value);
    assert.ok(strictOnly('url', 'ftp://x.example.org/'));
    assert.ok(strictOnly('maxAmount', -1));
    assert.ok(strictOnly('id', '-lead'));
    assert.ok(strictOnly('name', ''));
    assert.ok(strictOnly('eligibilityType', []));
    assert.ok(strictOnly('projectTypes', ['a', 'a']));
  });

  it('still admits null where the served record does, and names a union type in words', () => {
    const validate = createAjv().compile(programRowSchema);
    const row = { id: 'a', name: 'n', source: 's', eligibilityType: ['x'], fundingStatus: 'closed', url: null, maxAmount: null };
    assert.deepEqual(describeFailures(validate, row), []);
    assert.deepEqual(describeFailures(validate, { ...row, url: 5 }), [{ instancePath: '/url', path: '$.url', message: 'must be string or null' }]);
    assert.deepEqual(describeFailures(validate, { ...row, url: 'ftp://x.example.org/' }), [
      { instancePath: '/url', path: '$.url', message: 'must match pattern "^https?://"' },
    ]);
  });
});

describe('evidence lines from a fetch (issue 32)', () => {
  const ajv = createAjv();
  const link = ajv.compile(linkCheckSchema);
  const quote = ajv.compile(quoteCheckSchema);
  const id = '<urn:uuid:0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b>';
  const digest = 'a'.repeat(64);
  const linkLine = { url: 'https://x.example.org/a', checkedAt: '2026-11-23', outcome: 'dead', httpStatus: 404 };
  const quoteLine = {
    city: 'detroit', programId: 'p', reviewedAt: '2026-11-01', quoteSha256: digest, url: 'https://x.example.org/a',
    finalUrl: null, checkedAt: '2026-11-23', outcome: 'inconclusive', reason: 'r', contentType: null,
  };

  it('admits lines with and without the archive fields', () => {
    assert.deepEqual(describeFailures(link, linkLine), []);
    assert.deepEqual(describeFailures(link, { ...linkLine, warcRecordId: id, payloadSha256: digest }), []);
    assert.deepEqual(describeFailures(quote, quoteLine), []);
    assert.deepEqual(describeFailures(quote, { ...quoteLine, warcRecordId: id, payloadSha256: digest, extractor: '1+pdfjs-dist-5.4.449' }), []);
    assert.deepEqual(describeFailures(quote, { ...quoteLine, extractor: '2', rederived: { extractor: '2', from: '2026-11-16' } }), []);
  });

  it('refuses a record id that is not a WARC urn:uuid, a digest that is not hex SHA-256, a rederived without its origin', () => {
    assert.ok(!link({ ...linkLine, warcRecordId: 'urn:uuid:0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b' }));
    assert.ok(!link({ ...linkLine, payloadSha256: 'sha256:ABC' }));
    assert.ok(!quote({ ...quoteLine, payloadSha256: 'A'.repeat(64) }));
    assert.ok(!quote({ ...quoteLine, extractor: '' }));
    assert.ok(!quote({ ...quoteLine, rederived: { extractor: '2' } }));
    assert.ok(!quote({ ...quoteLine, rederived: { extractor: '2', from: '2026-11-16', extra: 1 } }));
  });
});
