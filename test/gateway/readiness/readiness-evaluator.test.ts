import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createReadinessEvaluator, evaluateReadiness, type Infrastructure } from '../../../gateway/readiness/evaluate-readiness.ts';
import { openSnapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';

const snapshot = openSnapshot(buildTestSnapshot());
after(() => snapshot.close());
const DAY = 86_400_000;

describe('createReadinessEvaluator', () => {
  const infrastructures: Infrastructure[] = [
    { sharedRateLimitStorage: false, rateLimitStorageScheme: 'memory', trustedOriginProxyConfigured: false },
    { sharedRateLimitStorage: true, rateLimitStorageScheme: 'redis', trustedOriginProxyConfigured: true },
  ];

  for (const infrastructure of infrastructures) {
    it(`answers exactly what evaluateReadiness does, across days and revisions (${infrastructure.rateLimitStorageScheme})`, () => {
      const evaluate = createReadinessEvaluator(infrastructure);
      const inputs = snapshot.readinessInputs;
      const completed = Date.parse(inputs.strictAudit.completedAt ?? '2026-01-01T00:00:00Z');
      const maxAge = inputs.thresholds.maxAuditAgeDays;
      // Before, at and after the day the audit turns stale, to the millisecond around midnight of its age.
      const times = [0, 1, DAY - 1, DAY, (maxAge - 1) * DAY, maxAge * DAY, (maxAge + 1) * DAY - 1, (maxAge + 1) * DAY, (maxAge + 40) * DAY + 123]
        .flatMap((offset) => [completed + offset, completed + offset]);
      let stale = 0;
      for (const revision of [snapshot.revision, 'gm1-0000000000000000000000000000000000000000000000000000000000000000']) {
        for (const time of times) {
          const now = new Date(time);
          const expected = evaluateReadiness(inputs, infrastructure, revision, now);
          assert.equal(evaluate(inputs, revision, now), expected, `${revision} at ${now.toISOString()}`);
          if (expected.includes('STRICT_AUDIT_STALE')) stale += 1;
        }
      }
      assert.ok(stale > 0 && stale < times.length * 2, 'the walk crosses the day the audit turns stale');
    });
  }

  it('follows an audit without a completion date', () => {
    const evaluate = createReadinessEvaluator(infrastructures[0] as Infrastructure);
    const inputs = { ...snapshot.readinessInputs, strictAudit: { ...snapshot.readinessInputs.strictAudit, completedAt: null } };
    for (const time of [0, DAY * 400]) {
      const now = new Date(Date.parse('2026-11-21T00:00:00Z') + time);
      assert.equal(evaluate(inputs, snapshot.revision, now), evaluateReadiness(inputs, infrastructures[0] as Infrastructure, snapshot.revision, now));
    }
  });
});
