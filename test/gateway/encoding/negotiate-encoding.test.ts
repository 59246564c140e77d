import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { negotiateEncoding, type ResponseCoding } from '../../../gateway/encoding/negotiate-encoding.ts';

describe('negotiateEncoding', () => {
  const table: ReadonlyArray<[string, ResponseCoding]> = [
    ['', 'identity'],
    ['br, gzip', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br', 'gzip'],
    ['br;q=0.9, gzip;q=1', 'gzip'],
    ['gzip;q=0.5, br;q=0.9', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['*;q=0', 'identity'],
    ['identity;q=0', 'identity'],
    ['identity;q=0, gzip', 'gzip'],
    ['br;q=0.1, identity;q=0.5', 'identity'],
    ['deflate', 'identity'],
    ['BR', 'br'],
    ['gzip;q=0.001', 'gzip'],
    ['x;;;=,,', 'identity'],
  ];
  for (const [header, expected] of table) {
    it(`${JSON.stringify(header)} -> ${expected}`, () => {
      assert.equal(negotiateEncoding(header), expected);
      // Remembered answers are the same answers.
      assert.equal(negotiateEncoding(header), expected);
    });
  }
});
