import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../gateway/http/api-error.ts';
import { changeFeedCity } from '../../../gateway/changes/change-feed-city.ts';

describe('changeFeedCity', () => {
  const accepted: Array<{ city: string | string[] | undefined; slug: string | undefined }> = [
    { city: undefined, slug: undefined },
    { city: '', slug: undefined },
    { city: 'beta', slug: 'beta' },
    { city: 'new-york-2', slug: 'new-york-2' },
  ];
  for (const { city, slug } of accepted) {
    it(`reads ${JSON.stringify(city)} as ${String(slug)}`, () => assert.equal(changeFeedCity({ city }), slug));
  }

  const refused: Array<string | string[]> = ['Beta', 'beta_', '-beta', 'beta-', 'be--ta', 'be ta', '../beta', 'béta', 'a'.repeat(101), ['alpha', 'beta'], ['beta', 'beta']];
  for (const city of refused) {
    it(`refuses ${JSON.stringify(city).slice(0, 40)} with 400 INVALID_CITY_SLUG`, () => {
      assert.throws(() => changeFeedCity({ city }), (error: unknown) => error instanceof ApiError && error.status === 400 && error.code === 'INVALID_CITY_SLUG');
    });
  }
});
