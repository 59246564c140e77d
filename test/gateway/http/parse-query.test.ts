/**
 * parseQuery reads a query exactly as URLSearchParams does (names grouped, repeats in order), and refuses
 * a query of more than MAX_QUERY_PARAMETERS parameters, however it is spelled, with a 400.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ApiError } from '../../../gateway/http/api-error.ts';
import { MAX_QUERY_PARAMETERS, parseQuery } from '../../../gateway/http/parse-query.ts';
import { hostileName, hostileValue, percentEncode } from '../hostile-input/hostile-support.ts';

/** What URLSearchParams reads, grouped the way parseQuery groups it, as plain entries. */
function expected(text: string): Array<[string, string | string[]]> {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(text)) grouped.set(name, [...(grouped.get(name) ?? []), value]);
  return [...grouped].map(([name, values]) => [name, values.length === 1 ? (values[0] ?? '') : values]);
}

const isTooMany = (error: unknown) => error instanceof ApiError && error.status === 400 && error.code === 'INVALID_PARAMETER' && /more than 32 parameters/.test(error.message);

/** A query segment: a pair, a bare name, or a stray separator, raw or percent-encoded. */
const segment = fc.oneof(
  fc.tuple(hostileName, hostileValue).map(([name, value]) => `${name}=${value}`),
  hostileName,
  fc.constantFrom('', '=', '==', '=x', '+', '%2B', '%26', 'a+b=c+d', '%', '%zz', '%C3%A9=%E2%82%AC', '?a'),
  fc.string({ maxLength: 6 }).map(percentEncode),
  // Raw text, but no `&`: each segment stays one, so an array of at most 32 stays within the bound.
  fc.string({ maxLength: 6 }).map((text) => text.replaceAll('&', '')),
);

describe('parseQuery', () => {
  it('reads every small query exactly as URLSearchParams does', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: MAX_QUERY_PARAMETERS }), fc.boolean(), (segments, leadingMark) => {
        const text = `${leadingMark ? '?' : ''}${segments.join('&')}`;
        const parsed = parseQuery(text);
        assert.equal(Object.getPrototypeOf(parsed), null, 'no prototype: __proto__ and constructor are plain names');
        // Key order is the engine's (integer-like names first), so compare by name.
        const byName = (entries: Array<[string, unknown]>) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        assert.deepEqual(byName(Object.entries(parsed)), byName(expected(text)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('groups repeats in order and keeps names like __proto__ as plain parameters', () => {
    const parsed = parseQuery('type=a&__proto__=x&type=b&constructor&type=c');
    assert.deepEqual(parsed.type, ['a', 'b', 'c']);
    assert.equal(parsed.__proto__, 'x');
    assert.equal(parsed.constructor, '');
    assert.deepEqual(Object.keys(parseQuery('')), []);
  });

  it(`accepts ${MAX_QUERY_PARAMETERS} parameters, and does not count empty segments or the leading ?`, () => {
    const most = Array.from({ length: MAX_QUERY_PARAMETERS }, (_, index) => `p${index}=${index}`).join('&');
    assert.equal(Object.keys(parseQuery(most)).length, MAX_QUERY_PARAMETERS);
    assert.equal(Object.keys(parseQuery(`?${most}`)).length, MAX_QUERY_PARAMETERS);
    assert.equal(Object.keys(parseQuery(`&&&${most.replaceAll('&', '&&&&')}&&&`)).length, MAX_QUERY_PARAMETERS);
    assert.deepEqual(parseQuery(`${'&'.repeat(4_000)}a=1`), Object.assign(Object.create(null), { a: '1' }));
  });

  const refused: Array<[string, string]> = [
    ['4,000 repeats of one bare name', Array.from({ length: 4_000 }, () => 'a').join('&')],
    [`${MAX_QUERY_PARAMETERS + 1} distinct parameters`, Array.from({ length: MAX_QUERY_PARAMETERS + 1 }, (_, index) => `p${index}=${index}`).join('&')],
    [`${MAX_QUERY_PARAMETERS + 1} empty values`, Array.from({ length: MAX_QUERY_PARAMETERS + 1 }, () => '=').join('&')],
    ['a repeated filter past the bound', Array.from({ length: MAX_QUERY_PARAMETERS + 1 }, () => 'status=open').join('&')],
  ];
  for (const [name, text] of refused) {
    it(`refuses ${name} with a 400 INVALID_PARAMETER`, () => {
      assert.throws(() => parseQuery(text), isTooMany);
      assert.throws(() => parseQuery(`?${text}`), isTooMany);
    });
  }

  it('refuses every query of more parameters than the bound, whatever the parameters are', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(hostileName, fc.tuple(hostileName, hostileValue).map(([n, v]) => `${n}=${v.slice(0, 20)}`)), { minLength: MAX_QUERY_PARAMETERS + 1, maxLength: 200 }), (segments) => {
        assert.throws(() => parseQuery(segments.join('&')), isTooMany);
      }),
      { numRuns: 500 },
    );
  });
});

describe('query reading in the gateway', () => {
  it('goes through parseQuery only: no code reads Koa\'s ctx.query or imports a Koa private module', () => {
    const gateway = join(import.meta.dirname, '..', '..', '..', 'gateway');
    const offending: string[] = [];
    for (const entry of readdirSync(gateway, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const file = join(entry.parentPath, entry.name);
      readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
        // Comments may name what is avoided; code may not use it. (A pg client's `.query` is SQL, not Koa's.)
        if (/^\s*(\*|\/\/|\/\*)/.test(line)) return;
        if (/(ctx|context|request)\.query/.test(line) || /['"]koa\/lib\//.test(line)) offending.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(offending, []);
  });
});
