/** parseStrictJson: JSON.parse's value, refused where RFC 8785 has no canonical form, located by line and path. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { findJsonViolations, MAX_JSON_DEPTH } from '../../../build/corpus/find-json-violations.ts';
import { parseStrictJson } from '../../../build/corpus/parse-strict-json.ts';
import { canonicalJson } from '../../../build/revision/canonical-digest.ts';
import { jsonTextModel } from './json-text-model.ts';

const nest = (levels: number, inner: string) => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

const refused: Array<{ what: string; text: string; line: number; path: string; message: RegExp }> = [
  { what: 'a duplicate key', text: '{"id":"a","id":"b"}', line: 0, path: '$.id', message: /^duplicate key "id"/ },
  { what: 'a duplicate key spelled with an escape', text: '{"id":"a","\\u0069d":"b"}', line: 0, path: '$.id', message: /^duplicate key "id"/ },
  { what: 'a duplicate key deep inside', text: '{"a":[{"b":{"c":1,"d":2,"c":3}}]}', line: 0, path: '$.a[0].b.c', message: /^duplicate key "c"/ },
  { what: 'a duplicate key whose first value is invalid', text: '{"fundingStatus":"open","fundingStatus":"closed"}', line: 0, path: '$.fundingStatus', message: /^duplicate key/ },
  { what: 'a duplicate key on its own line', text: '{\n  "dataset": "a",\n  "x": {},\n  "dataset": "b"\n}', line: 3, path: '$.dataset', message: /^duplicate key "dataset"/ },
  { what: 'a lone high surrogate in a string', text: '{"note":"roof \\ud800 repair"}', line: 0, path: '$.note', message: /lone surrogate \\ud800/ },
  { what: 'a lone low surrogate in a string', text: '{"note":["\\uDC00"]}', line: 0, path: '$.note[0]', message: /lone surrogate \\udc00/ },
  { what: 'reversed surrogates', text: '{"note":"\\udc00\\ud800"}', line: 0, path: '$.note', message: /lone surrogate \\udc00/ },
  { what: 'a lone surrogate in a key', text: '{"\\ud800x":1}', line: 0, path: '$["\\ud800x"]', message: /^key holds a lone surrogate \\ud800/ },
  { what: 'a number beyond the double range', text: '{"note":1E400}', line: 0, path: '$.note', message: /^number 1E400 is beyond the range of an IEEE 754 double/ },
  { what: 'a negative number beyond the double range', text: '{"extra":[1,-1e999]}', line: 0, path: '$.extra[1]', message: /^number -1e999/ },
  { what: 'nesting deeper than the limit', text: `{"deep":${nest(MAX_JSON_DEPTH, '0')}}`, line: 0, path: `$.deep${'[0]'.repeat(MAX_JSON_DEPTH - 1)}`, message: /nests deeper than 64 levels/ },
  { what: 'nesting far deeper than the limit', text: `{"deep":${nest(100_000, '0')}}`, line: 0, path: `$.deep${'[0]'.repeat(MAX_JSON_DEPTH - 1)}`, message: /nests deeper than 64 levels/ },
  { what: 'text that is not JSON', text: '{\n"a": 1\n"b": 2}', line: 2, path: '$', message: /^not valid JSON \(Expected ',' or '}' after property value/ },
  { what: 'a stray byte-order mark inside the text', text: '\ufeff{"a":1}', line: 0, path: '$', message: /U\+FEFF/ },
  // V8 quotes the text around the fault: a corpus file that is another file (/etc/passwd) must not be printed.
  { what: 'a line of another format', text: 'root:x:0:0:root:/root:/bin/bash', line: 0, path: '$', message: /^not valid JSON \(unexpected character at column 1\)$/ },
  { what: 'a line with a bad token inside', text: '{"a": secret}', line: 0, path: '$', message: /^not valid JSON \(unexpected character at column 7\)$/ },
];

const accepted: Array<{ what: string; text: string }> = [
  { what: 'the same key in sibling objects', text: '{"a":{"x":1},"b":{"x":1},"c":[{"x":1},{"x":2}]}' },
  { what: 'keys that differ only by case', text: '{"id":1,"Id":2,"ID":3}' },
  { what: 'colons inside keys and strings', text: '{"a:b":"https://x.example/:y","c":":"}' },
  { what: 'an escaped colon', text: '{"a":"\\u003a","b":1}' },
  { what: 'a surrogate pair written as escapes', text: '{"note":"\\ud83d\\ude00","\\uD83D\\uDE00":1}' },
  { what: 'the largest doubles and an underflow to zero', text: '{"a":1.7976931348623157e308,"b":-1.7976931348623157E+308,"c":1e-400,"d":-0}' },
  { what: 'nesting at the limit', text: `{"deep":${nest(MAX_JSON_DEPTH - 1, '0')}}` },
  { what: 'a __proto__ key', text: '{"__proto__":{"a":1},"b":2}' },
];

describe('parseStrictJson', () => {
  for (const { what, text, line, path, message } of refused) {
    it(`refuses ${what} at line ${line + 1}, ${path.length > 40 ? `${path.slice(0, 40)}…` : path}`, () => {
      const { violations } = parseStrictJson(text);
      assert.equal(violations.length, 1, JSON.stringify(violations));
      const [violation] = violations;
      assert.equal(violation?.line, line);
      assert.equal(violation?.path, path);
      assert.match(violation?.message ?? '', message);
    });
  }

  for (const { what, text } of accepted) {
    it(`accepts ${what}, with JSON.parse's value`, () => {
      const { value, violations } = parseStrictJson(text);
      assert.deepEqual(violations, []);
      assert.deepEqual(value, JSON.parse(text));
      assert.doesNotThrow(() => canonicalJson(value));
    });
  }

  it('reports every violation of a text, in text order', () => {
    const { violations } = parseStrictJson('{"a":1,"a":2,"b":"\\ud800","c":1e999,"c":0}');
    assert.deepEqual(violations.map((violation) => violation.path), ['$.a', '$.b', '$.c', '$.c']);
  });

  it('agrees with an independent verdict on generated texts, and what it accepts canonicalizes', () => {
    fc.assert(fc.property(jsonTextModel, (model) => {
      const text = `{"id":"x", "extra":${model.text}}`;
      const expected = model.canonical && 1 + model.depth <= MAX_JSON_DEPTH;
      const { value, violations } = parseStrictJson(text);
      assert.equal(violations.length === 0, expected, `${text}\n${JSON.stringify(violations)}`);
      // The cheap check only ever vouches: the full scan alone reaches the same verdict.
      assert.equal(findJsonViolations(text).length === 0, expected);
      if (expected) assert.doesNotThrow(() => canonicalJson(value));
      else for (const violation of violations) assert.match(violation.path, /^\$\.extra/);
    }), { numRuns: 3_000 });
  });
});
