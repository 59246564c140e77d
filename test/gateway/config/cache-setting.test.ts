import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseGatewayConfig } from '../../../gateway/config/parse-gateway-config.ts';
import { CACHE_SHARES, DEFAULT_CACHE_BYTES, splitCacheBudget } from '../../../gateway/programs/cache-budget.ts';

describe('--cache-mb', () => {
  it('defaults to 48 MiB and reads the flag before the environment', () => {
    assert.equal(parseGatewayConfig({}, {}).cacheBytes, 48 * 2 ** 20);
    assert.equal(parseGatewayConfig({}, { HRA_CACHE_MB: '200' }).cacheBytes, 200 * 2 ** 20);
    assert.equal(parseGatewayConfig({ cacheMb: '8' }, { HRA_CACHE_MB: '200' }).cacheBytes, 8 * 2 ** 20);
  });

  for (const bad of ['0', '-1', '1.5', 'lots', '65537', '']) {
    it(`refuses ${JSON.stringify(bad)} with a line naming the flag`, () => {
      assert.throws(() => parseGatewayConfig({ cacheMb: bad }, {}), (error: unknown) => error instanceof ConfigError && /^--cache-mb: cache size must be an integer number of MiB from 1 to 65536/.test(error.message));
    });
  }
});

describe('splitCacheBudget', () => {
  it('gives every cache its share, together never more than the budget', () => {
    assert.ok(Math.abs(Object.values(CACHE_SHARES).reduce((sum, share) => sum + share, 0) - 1) < 1e-9);
    for (const total of [1, 1000, DEFAULT_CACHE_BYTES, 3 * 2 ** 30]) {
      const budget = splitCacheBudget(total);
      const sum = Object.values(budget).reduce((bytes, part) => bytes + part, 0);
      // At least a byte each, so a total below the number of caches is exceeded by that floor alone.
      assert.ok(sum <= Math.max(total, Object.keys(CACHE_SHARES).length), `${sum} bytes of ${total}`);
      for (const part of Object.values(budget)) assert.ok(part >= 1);
    }
    assert.deepEqual(splitCacheBudget(1000), { unfilteredBytes: 300, filteredBytes: 150, recordListBytes: 200, recordBytes: 100, changePageBytes: 100, encodedBytes: 150 });
    assert.deepEqual(splitCacheBudget(), splitCacheBudget(DEFAULT_CACHE_BYTES));
  });
});
