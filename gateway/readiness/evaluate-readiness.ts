/**
 * The paid-licensing readiness gate (spec 2.9): READY only when every gate is green. The dataset half of
 * the inputs comes from the snapshot; infrastructure from the running configuration; time from the clock.
 */
import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import type { ReadinessInputs } from '../../build/contract/readiness-inputs.ts';
import { readinessSchema } from '../../build/contract/readiness-schema.ts';
import { serializeThroughSchema } from '../../build/contract/serialize-through-schema.ts';

const canonicalize = ((canonicalizeModule as unknown as { default?: unknown }).default ?? canonicalizeModule) as (value: unknown) => string;

/** The runtime half of readiness, from the gateway's real configuration. */
export interface Infrastructure {
  sharedRateLimitStorage: boolean;
  rateLimitStorageScheme: 'memory' | 'redis';
  trustedOriginProxyConfigured: boolean;
  /** Keys in a store every gateway shares (PostgreSQL), so a revocation anywhere holds everywhere. */
  sharedKeyStorage?: boolean;
  keyStorageScheme?: 'sqlite' | 'postgres';
}

interface Reason {
  code: string;
  message: string;
}

const DAY_MS = 86_400_000;

/** Evaluates every gate and returns the readiness JSON text (schema key order). */
export function evaluateReadiness(inputs: ReadinessInputs, infrastructure: Infrastructure, revision: string, now: Date): string {
  const { thresholds } = inputs;
  const reasons: Reason[] = [];
  const red = (code: string, message: string) => reasons.push({ code, message });

  const audit = inputs.strictAudit;
  const ageDays = auditAgeDays(audit.completedAt, now);
  const errorRate = audit.recordsAudited > 0 ? round(audit.factErrors / audit.recordsAudited) : null;
  const upperBound = audit.errorRateUpperBound ?? null;
  if (!audit.present) red('STRICT_AUDIT_MISSING', 'no completed strict fact audit is published');
  else {
    if (ageDays !== null && ageDays > thresholds.maxAuditAgeDays) red('STRICT_AUDIT_STALE', `the strict fact audit is ${ageDays} days old; at most ${thresholds.maxAuditAgeDays} allowed`);
    // The bound, not the point estimate: a sample too small to support the threshold keeps the gate red.
    if (errorRate === null) red('STRICT_AUDIT_EMPTY', 'the strict fact audit audited no records');
    else if (upperBound === null) red('STRICT_AUDIT_UNBOUNDED', 'the strict fact audit publishes no sampling frame or 95% upper bound on its error rate (a hand-written version 2 artifact); draw and publish one with hra audit sample and hra audit publish');
    else if (upperBound > thresholds.maxFactErrorRate) red('STRICT_AUDIT_ERROR_RATE', `the 95% upper bound of the fact error rate, ${upperBound} (${audit.factErrors} errors in ${audit.recordsAudited} records), exceeds ${thresholds.maxFactErrorRate}`);
  }
  const auditGreen = reasons.length === 0;

  const health = inputs.dataHealth;
  const before = reasons.length;
  if (health.licensedPrograms < thresholds.minLicensedPrograms) red('DATA_HEALTH_PROGRAMS', `${health.licensedPrograms} licensed programs; at least ${thresholds.minLicensedPrograms} required`);
  if (health.citiesCovered < thresholds.minCitiesCovered) red('DATA_HEALTH_CITIES', `${health.citiesCovered} cities covered; at least ${thresholds.minCitiesCovered} required`);
  if (health.deadLinkShare > thresholds.maxDeadLinkShare) red('DATA_HEALTH_DEAD_LINKS', `dead-link share ${health.deadLinkShare} exceeds ${thresholds.maxDeadLinkShare}`);
  if (health.unverifiedShare > thresholds.maxUnverifiedShare) red('DATA_HEALTH_UNVERIFIED', `unverified share ${health.unverifiedShare} exceeds ${thresholds.maxUnverifiedShare}`);
  const healthGreen = reasons.length === before;

  const release = inputs.commercialRelease;
  if (!release.approved) red('COMMERCIAL_RELEASE_NOT_APPROVED', 'the commercial release has not been approved');
  if (!infrastructure.sharedRateLimitStorage) red('RATE_LIMIT_STORAGE_NOT_SHARED', 'rate-limit windows are not kept in shared storage (start the gateway with --redis)');
  if (!infrastructure.trustedOriginProxyConfigured) red('TRUSTED_PROXY_NOT_CONFIGURED', 'no trusted origin proxy is configured (--trust-proxy)');

  const ready = reasons.length === 0;
  const body = {
    checkoutEnabled: ready,
    code: ready ? 'READY' : 'DATASET_CHECKOUT_NOT_READY',
    checkedAt: now.toISOString(),
    readinessDigest: '',
    strictAudit: { green: auditGreen, ...audit, ageDays, errorRate, errorRateUpperBound: upperBound },
    dataHealth: { green: healthGreen, ...health },
    commercialRelease: { green: release.approved, ...release },
    infrastructure,
    thresholds,
    reasons,
    buyerNotice: ready
      ? 'All readiness gates are green. Records remain discovery data: surface each cited URL and a verification warning.'
      : 'Checkout is disabled: a readiness gate is red. Do not procure or deliver the dataset until every gate is green.',
  };
  // Deterministic over the inputs: everything but the time of the check.
  const { checkedAt: _checkedAt, readinessDigest: _digest, ...digested } = body;
  body.readinessDigest = `sha256:${createHash('sha256').update(canonicalize({ revision, ...digested })).digest('hex')}`;
  return serializeThroughSchema(readinessSchema, body);
}

/** Whole days since the strict audit completed (0 for a date ahead of the clock), or null without one. */
function auditAgeDays(completedAt: string | null, now: Date): number | null {
  return completedAt === null ? null : Math.max(0, Math.floor((now.getTime() - Date.parse(completedAt)) / DAY_MS));
}

function round(share: number): number {
  return Math.round(share * 10_000) / 10_000;
}

/** Readiness of the pinned snapshot at the clock's time, as evaluateReadiness would answer it. */
export type ReadinessEvaluator = (inputs: ReadinessInputs, revision: string, now: Date) => string;

/**
 * evaluateReadiness, remembered. Its answer depends on the clock only through `checkedAt` and the audit's
 * age in whole days, so the text is kept per revision and age, split around `checkedAt`, and a request
 * only writes the time in. The full evaluation (a canonical JSON digest and a schema-checked
 * serialization) was most of the dataset health route's CPU (issue 6 profile).
 */
export function createReadinessEvaluator(infrastructure: Infrastructure): ReadinessEvaluator {
  let remembered: { key: string; before: string; after: string } | undefined;
  return (inputs, revision, now) => {
    const key = `${revision}\u0000${auditAgeDays(inputs.strictAudit.completedAt, now)}`;
    if (remembered?.key !== key) {
      const text = evaluateReadiness(inputs, infrastructure, revision, now);
      // `checkedAt` is the third member of the top-level object, so its first occurrence is the one.
      const marker = '"checkedAt":"';
      const start = text.indexOf(marker) + marker.length;
      const end = text.indexOf('"', start);
      remembered = { key, before: text.slice(0, start), after: text.slice(end) };
    }
    return `${remembered.before}${now.toISOString()}${remembered.after}`;
  };
}
