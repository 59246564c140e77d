import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyPage } from '../../../build/links/classify-page.ts';

const rows: Array<{ what: string; cited: string; final: string; expected: 'program' | 'agency' }> = [
  { what: 'a deep link answered in place', cited: 'http://a.test/housing/roof-grant', final: 'http://a.test/housing/roof-grant', expected: 'program' },
  { what: 'a cited root', cited: 'http://a.test/', final: 'http://a.test/', expected: 'agency' },
  { what: 'a cited root without a slash', cited: 'http://a.test', final: 'http://a.test/', expected: 'agency' },
  { what: 'a cited root that redirects to a deep page', cited: 'http://a.test/', final: 'http://a.test/portal/welcome-page', expected: 'agency' },
  { what: 'a deep link redirected to the root', cited: 'http://a.test/housing/roof-grant', final: 'https://www.a.test/', expected: 'agency' },
  { what: 'a deep link redirected to /index.html', cited: 'http://a.test/roof', final: 'http://a.test/index.html', expected: 'agency' },
  { what: 'a deep link redirected to /en/', cited: 'http://a.test/roof', final: 'http://a.test/en/', expected: 'agency' },
  { what: 'a deep link redirected to /es/default.aspx', cited: 'http://a.test/roof', final: 'http://a.test/es/default.aspx', expected: 'agency' },
  { what: 'the root with a query', cited: 'http://a.test/roof', final: 'http://a.test/?lang=en', expected: 'agency' },
  { what: 'a deep link redirected up to its section', cited: 'http://a.test/housing/programs/roof-grant', final: 'http://a.test/housing/programs/', expected: 'agency' },
  { what: 'a trailing slash added is the same page', cited: 'http://a.test/housing/roof-grant', final: 'http://a.test/housing/roof-grant/', expected: 'program' },
  { what: 'a redirect to a sibling page', cited: 'http://a.test/housing/roof-grant', final: 'http://a.test/housing/roof-grant-2027', expected: 'program' },
  { what: 'a section path on another site is not an ancestor', cited: 'http://a.test/housing/roof-grant', final: 'http://b.test/housing/', expected: 'program' },
  { what: 'a short word is not a language (/go)', cited: 'http://a.test/go', final: 'http://a.test/go', expected: 'program' },
];

describe('classifyPage', () => {
  for (const row of rows) {
    it(`${row.what} -> ${row.expected}`, () => assert.equal(classifyPage(row.cited, row.final), row.expected));
  }
});
