/**
 * Readiness `infrastructure` (spec 2.9) reflects the gateway's real configuration: shared limit
 * storage only with `--redis`, a trusted proxy only with `--trust-proxy`, and the matching red reasons.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertMatchesSchema } from '../../support/contract-validators.ts';
import { redisServerSkip, startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { startTestGateway } from '../../support/start-test-gateway.ts';

interface Readiness {
  infrastructure: { sharedRateLimitStorage: boolean; rateLimitStorageScheme: string; trustedOriginProxyConfigured: boolean };
  reasons: { code: string }[];
}

const INFRASTRUCTURE_REASONS = ['RATE_LIMIT_STORAGE_NOT_SHARED', 'TRUSTED_PROXY_NOT_CONFIGURED'];

const cases = [
  { redis: false, trustProxy: false, reasons: INFRASTRUCTURE_REASONS },
  { redis: false, trustProxy: true, reasons: ['RATE_LIMIT_STORAGE_NOT_SHARED'] },
  { redis: true, trustProxy: false, reasons: ['TRUSTED_PROXY_NOT_CONFIGURED'] },
  { redis: true, trustProxy: true, reasons: [] },
];

describe('readiness infrastructure follows the configuration', () => {
  let redis: RedisServer | undefined;
  const redisSkip = redisServerSkip();
  before(async () => {
    if (!redisSkip) redis = await startRedisServer();
  });
  after(async () => {
    await redis?.stop();
  });

  for (const testCase of cases) {
    const flags = `${testCase.redis ? '--redis' : '(memory)'} ${testCase.trustProxy ? '--trust-proxy' : '(no proxy)'}`;
    it(`${flags}: reasons ${testCase.reasons.join(', ') || 'none'} of the infrastructure gate`, { skip: testCase.redis && redisSkip }, async () => {
      const gateway = await startTestGateway({ flags: { ...(testCase.redis ? { redis: redis!.url } : {}), ...(testCase.trustProxy ? { trustProxy: true } : {}) } });
      try {
        for (const path of ['/api/data/readiness', '/api/dataset/health']) {
          const response = await gateway.get(path);
          assert.equal(response.status, 200, path);
          const body: unknown = await response.json();
          const readiness = (path === '/api/data/readiness' ? body : (body as { paidLicensing: unknown }).paidLicensing) as Readiness;
          assertMatchesSchema('readiness', readiness, path);
          assert.deepEqual(readiness.infrastructure, {
            sharedRateLimitStorage: testCase.redis,
            rateLimitStorageScheme: testCase.redis ? 'redis' : 'memory',
            trustedOriginProxyConfigured: testCase.trustProxy,
          }, path);
          const infrastructureReasons = readiness.reasons.map((reason) => reason.code).filter((code) => INFRASTRUCTURE_REASONS.includes(code));
          assert.deepEqual(infrastructureReasons, testCase.reasons, path);
        }
      } finally {
        await gateway.close();
      }
    });
  }
});
