import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createChangeQueryMemo } from '../../../gateway/changes/change-query-memo.ts';
import { parseChangeQuery } from '../../../gateway/changes/parse-change-query.ts';
import { ApiError } from '../../../gateway/http/api-error.ts';
import { parseQuery } from '../../../gateway/http/parse-query.ts';

const REVISION_A = `gm1-${'a'.repeat(64)}`;
const REVISION_B = `gm1-${'b'.repeat(64)}`;

/** The page key as the handler made it per request before the memo. */
const freshKey = (revision: string, text: string) => {
  const query = parseChangeQuery(parseQuery(text));
  return `${revision}\u0000${query.since}\u0000${query.limit}\u0000${query.city ?? ''}\u0000${query.cursor ?? ''}`;
};

describe('createChangeQueryMemo', () => {
  it('parses a text as parseChangeQuery does, and once', () => {
    const read = createChangeQueryMemo();
    const text = 'since=2026-01-01&limit=25&city=beta&cursor=abc.def';
    const first = read(text);
    assert.deepEqual(first.query, parseChangeQuery(parseQuery(text)));
    assert.equal(read(text), first);
    assert.notEqual(read('since=2026-01-01&limit=26&city=beta&cursor=abc.def').query.limit, first.query.limit);
  });

  it('gives each revision its own page key, also when revisions interleave (a swap, a rolling deploy)', () => {
    const read = createChangeQueryMemo();
    const text = 'since=2026-01-01&limit=100';
    for (const revision of [REVISION_A, REVISION_B, REVISION_A, REVISION_A, REVISION_B]) {
      assert.equal(read(text).pageKey(revision), freshKey(revision, text));
    }
  });

  it('keeps queries apart that differ only in city or cursor', () => {
    const read = createChangeQueryMemo();
    const texts = ['since=2026-01-01', 'since=2026-01-01&city=beta', 'since=2026-01-01&cursor=x.y', 'since=2026-01-01&city=beta&cursor=x.y'];
    const keys = texts.map((text) => read(text).pageKey(REVISION_A));
    assert.equal(new Set(keys).size, texts.length);
    texts.forEach((text, index) => assert.equal(keys[index], freshKey(REVISION_A, text)));
  });

  it('refuses a bad query every time, remembering nothing of it', () => {
    const read = createChangeQueryMemo();
    for (let attempt = 0; attempt < 2; attempt++) {
      assert.throws(() => read('since=2026-02-30'), (error: unknown) => error instanceof ApiError && error.code === 'INVALID_DATE');
      assert.throws(() => read('since=2026-01-01&limit=0'), (error: unknown) => error instanceof ApiError && error.code === 'INVALID_LIMIT');
    }
  });

  it('stays exact past its bound', () => {
    const read = createChangeQueryMemo(2048);
    for (let limit = 1; limit <= 200; limit++) {
      const text = `since=2026-01-01&limit=${limit}`;
      assert.equal(read(text).query.limit, limit);
      assert.equal(read(text).pageKey(limit % 2 === 0 ? REVISION_A : REVISION_B), freshKey(limit % 2 === 0 ? REVISION_A : REVISION_B, text));
    }
  });
});
