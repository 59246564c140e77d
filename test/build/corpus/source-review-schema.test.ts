import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sourceReviewSchema } from '../../../build/corpus/corpus-schemas.ts';
import { createAjv } from '../../../build/corpus/create-ajv.ts';

const ID = '<urn:uuid:0f8e4d2a-1b3c-4d5e-8f90-123456789abc>';
const ID2 = '<urn:uuid:1f8e4d2a-1b3c-4d5e-8f90-123456789abc>';
const SHA = 'c'.repeat(64);
const typed = { city: 'detroit', programId: 'roof', reviewedAt: '2026-11-01', kind: 'identity', identityMatch: true };
const model = { kind: 'model', model: 'm-1', endpointHost: '127.0.0.1:8080', promptVersion: 'review-1+passages-1' };
const modelLine = { ...typed, reviewer: model, warcRecordId: ID, payloadSha256: SHA, exchange: { requestRecordId: ID2, responseRecordId: ID } };

describe('sourceReviewSchema provenance (issue 38)', () => {
  const validate = createAjv().compile(sourceReviewSchema);
  const table: Array<[string, unknown, boolean]> = [
    ['a hand-typed line without provenance stays valid', typed, true],
    ['a hand-typed amount line stays valid', { ...typed, kind: 'amount', amountQuote: 'up to $5,000', quoteFoundInPage: true }, true],
    ['a model review with page and exchange', modelLine, true],
    ['a model amount review', { ...modelLine, kind: 'amount', amountQuote: 'up to $5,000', quoteFoundInPage: true }, true],
    ['a person review with its page', { ...typed, reviewer: { kind: 'person', name: 'A. Reviewer' }, warcRecordId: ID, payloadSha256: SHA }, true],
    ['a person review without a page', { ...typed, reviewer: { kind: 'person', name: 'A. Reviewer' } }, true],
    ['a model review without its exchange', { ...modelLine, exchange: undefined }, false],
    ['a model review without its page', { ...modelLine, warcRecordId: undefined }, false],
    ['a person review with an exchange', { ...typed, reviewer: { kind: 'person', name: 'A' }, exchange: modelLine.exchange }, false],
    ['an exchange without a reviewer', { ...typed, exchange: modelLine.exchange }, false],
    ['a reviewer of an unknown kind', { ...typed, reviewer: { kind: 'robot', name: 'x' } }, false],
    ['a model reviewer with an extra field', { ...modelLine, reviewer: { ...model, seed: 1 } }, false],
    ['a person reviewer with a model field', { ...typed, reviewer: { kind: 'person', name: 'A', model: 'm' } }, false],
    ['a model reviewer without its prompt version', { ...modelLine, reviewer: { ...model, promptVersion: undefined } }, false],
    ['a bad record id', { ...modelLine, warcRecordId: 'urn:uuid:x' }, false],
    ['a bad payload digest', { ...modelLine, payloadSha256: 'C'.repeat(64) }, false],
    ['an exchange with an extra field', { ...modelLine, exchange: { ...modelLine.exchange, key: 'x' } }, false],
  ];
  for (const [name, line, valid] of table) {
    it(name, () => {
      const clean = JSON.parse(JSON.stringify(line));
      assert.equal(validate(clean), valid, JSON.stringify(validate.errors));
    });
  }
});
