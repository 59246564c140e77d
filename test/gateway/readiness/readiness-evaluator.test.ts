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

describe('evaluateReadiness: the strict-audit gate compares the 95% upper bound, not the point estimate', () => {
  const infrastructure: Infrastructure = { sharedRateLimitStorage: true, rateLimitStorageScheme: 'redis', trustedOriginProxyConfigured: true };
  const now = new Date('2026-11-20T12:00:00Z');
  const gateOf = (strictAudit: Partial<typeof snapshot.readinessInputs.strictAudit>, maxFactErrorRate: number) => {
    // The fixture's own bound is left out, so an audit given without one has none (as a version 2 snapshot stores it).
    const { errorRateUpperBound: _fixtureBound, ...fixtureAudit } = snapshot.readinessInputs.strictAudit;
    const inputs = {
      ...snapshot.readinessInputs,
      thresholds: { ...snapshot.readinessInputs.thresholds, maxFactErrorRate },
      strictAudit: { ...fixtureAudit, completedAt: '2026-11-05T12:00:00Z', ...strictAudit },
    };
    const readiness = JSON.parse(evaluateReadiness(inputs, infrastructure, snapshot.revision, now)) as { strictAudit: { green: boolean; errorRate: number | null; errorRateUpperBound: number | null }; reasons: { code: string; message: string }[] };
    return { ...readiness.strictAudit, reasons: readiness.reasons.filter((reason) => reason.code.startsWith('STRICT_AUDIT')) };
  };

  it('is red for 0 errors in 5 records under 5%, though the point estimate is 0', () => {
    const gate = gateOf({ recordsAudited: 5, factErrors: 0, errorRateUpperBound: 0.521824 }, 0.05);
    assert.equal(gate.green, false);
    assert.equal(gate.errorRate, 0);
    assert.equal(gate.errorRateUpperBound, 0.521824);
    assert.deepEqual(gate.reasons.map((reason) => reason.code), ['STRICT_AUDIT_ERROR_RATE']);
    assert.match(gate.reasons[0]?.message ?? '', /95% upper bound of the fact error rate, 0\.521824 \(0 errors in 5 records\), exceeds 0\.05/);
  });

  it('is green when the bound is within the threshold: 0 errors in 300 records under 5%', () => {
    const gate = gateOf({ recordsAudited: 300, factErrors: 0, errorRateUpperBound: 0.012221 }, 0.05);
    assert.deepEqual([gate.green, gate.reasons], [true, []]);
  });

  it('refuses an audit that publishes no bound (a hand-written version 2 artifact) by name, whatever its point estimate', () => {
    const inputs = { recordsAudited: 40, factErrors: 0 };
    for (const unbounded of [{ ...inputs, errorRateUpperBound: null }, inputs]) {
      const gate = gateOf(unbounded, 0.5);
      assert.equal(gate.green, false);
      assert.equal(gate.errorRateUpperBound, null);
      assert.deepEqual(gate.reasons.map((reason) => reason.code), ['STRICT_AUDIT_UNBOUNDED']);
    }
  });
});
