/**
 * Readiness `infrastructure` (spec 2.9) reflects the gateway's real configuration: shared limit
 * storage only with `--redis`, a trusted proxy only with `--trust-proxy`, and the matching red reasons;
 * shared key storage only with `--keys postgres://` (reported; no gate reads it).
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertMatchesSchema } from '../../support/contract-validators.ts';
import { postgresServerSkip, startPostgresServer, type PostgresServer } from '../../support/postgres-server.ts';
import { redisServerSkip, startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { startTestGateway } from '../../support/start-test-gateway.ts';
import type { Health } from '../../../build/contract/health-schema.ts';
import type { Readiness } from '../../../build/contract/readiness-schema.ts';

const INFRASTRUCTURE_REASONS = ['RATE_LIMIT_STORAGE_NOT_SHARED', 'TRUSTED_PROXY_NOT_CONFIGURED'];

const cases = [
  { redis: false, trustProxy: false, postgres: false, reasons: INFRASTRUCTURE_REASONS },
  { redis: false, trustProxy: true, postgres: false, reasons: ['RATE_LIMIT_STORAGE_NOT_SHARED'] },
  { redis: true, trustProxy: false, postgres: false, reasons: ['TRUSTED_PROXY_NOT_CONFIGURED'] },
  { redis: true, trustProxy: true, postgres: false, reasons: [] },
  { redis: true, trustProxy: true, postgres: true, reasons: [] },
];

describe('readiness infrastructure follows the configuration', () => {
  let redis: RedisServer | undefined;
  let postgres: PostgresServer | undefined;
  const redisSkip = redisServerSkip();
  const postgresSkip = postgresServerSkip();
  before(async () => {
    if (!redisSkip) redis = await startRedisServer();
    if (!postgresSkip) postgres = await startPostgresServer();
  });
  after(async () => {
    await redis?.stop();
    await postgres?.stop();
  });

  for (const testCase of cases) {
    const flags = `${testCase.redis ? '--redis' : '(memory)'} ${testCase.trustProxy ? '--trust-proxy' : '(no proxy)'}${testCase.postgres ? ' --keys postgres://' : ''}`;
    it(`${flags}: reasons ${testCase.reasons.join(', ') || 'none'} of the infrastructure gate`, { skip: (testCase.redis && redisSkip) || (testCase.postgres && postgresSkip) }, async () => {
      const keys = testCase.postgres ? { keys: await postgres!.createDatabase() } : {};
      const gateway = await startTestGateway({ flags: { ...(testCase.redis ? { redis: redis!.url } : {}), ...(testCase.trustProxy ? { trustProxy: true } : {}), ...keys } });
      try {
        for (const path of ['/api/data/readiness', '/api/dataset/health']) {
          const response = await gateway.get(path);
          assert.equal(response.status, 200, path);
          const body: unknown = await response.json();
          const readiness = (path === '/api/data/readiness' ? body : (body as Health).paidLicensing) as Readiness;
          assertMatchesSchema('readiness', readiness, path);
          assert.deepEqual(readiness.infrastructure, {
            sharedRateLimitStorage: testCase.redis,
            rateLimitStorageScheme: testCase.redis ? 'redis' : 'memory',
            trustedOriginProxyConfigured: testCase.trustProxy,
            sharedKeyStorage: testCase.postgres,
            keyStorageScheme: testCase.postgres ? 'postgres' : 'sqlite',
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
