/** Composes dataset health (spec 2.8) and the readiness inputs from a finished tally. */
import { healthSchema } from '../contract/health-schema.ts';
import type { ReadinessInputs } from '../contract/readiness-inputs.ts';
import { serializeThroughSchema } from '../contract/serialize-through-schema.ts';
import type { Corpus } from '../corpus/corpus-types.ts';
import type { HealthTally } from './tally-health.ts';

/** Health bytes split around `paidLicensing`, which the gateway fills with live readiness per request. */
export interface ComposedHealth {
  head: string;
  tail: string;
  readinessInputs: ReadinessInputs;
}

const SPLICE = '__paid_licensing_spliced_at_serve_time__';

/** Fixed explanations shipped in `notes` (spec 2.8 leaves its members to us). */
export const HEALTH_NOTES = {
  countingRule: 'Row totals count city-program rows: one program repeated in several city collections counts once per city. distinctPrograms counts distinct stored names; locallyUniquePrograms counts names stored in exactly one city.',
  scope: 'totalPrograms covers every row of the live cities, withheld ones included; licensedPrograms only rows served to licensed keys. The four federal canonical records are counted in maintainedFederalCanonicalRows, not in city row totals.',
  linkStatus: 'linkStatus "live" only means the cited URL resolved at the last check; it does not mean the stored facts are current.',
  confidence: 'Confidence tiers are bounded evidence labels (spec 2.2); a review at least 90 days old before the as-of date cannot hold source-verified or model-identity-reviewed.',
  incomeAny: 'incomeRequirement "any" is a stored sentinel, not proof that no income test applies.',
  paidLicensing: 'paidLicensing is the live readiness gate, evaluated at request time; a red gate must stop procurement or delivery.',
} as const;

/** Builds the health document and the readiness inputs. */
export function composeHealth(corpus: Corpus, revision: string, tally: HealthTally): ComposedHealth {
  const names = tally.nameMeasures();
  const audit = corpus.reports['fact-audit-latest'];
  const factAccuracy = audit?.summary
    ? {
        artifact: 'fact-audit-latest',
        completedAt: audit.completedAt,
        recordsAudited: audit.summary.recordsAudited,
        factErrors: audit.summary.factErrors,
        errorRate: audit.summary.recordsAudited > 0 ? round(audit.summary.factErrors / audit.summary.recordsAudited) : null,
        // Checked against the counts when the corpus loads (check-fact-audit-summary.ts); null: none published.
        errorRateUpperBound: (audit.summary as { errorRateUpperBound?: number | null }).errorRateUpperBound ?? null,
      }
    : null;
  const health = {
    dataset: corpus.manifest.dataset,
    datasetRevision: revision,
    totalPrograms: tally.totalRows,
    licensedPrograms: tally.licensedRows,
    quarantinedPrograms: tally.quarantinedRows,
    outOfScopePrograms: tally.outOfScopeRows,
    citiesCovered: tally.citiesCovered,
    distinctPrograms: names.distinct,
    locallyUniquePrograms: names.locallyUnique,
    licensedDistinctPrograms: names.licensedDistinct,
    licensedLocallyUniquePrograms: names.licensedLocallyUnique,
    maintainedFederalCanonicalRows: tally.federalRows,
    nationalLayerRows: tally.federalRows,
    selectedNationalRows: tally.servedFederalRows,
    lastLinkCheck: tally.lastLinkCheck,
    linkHealth: tally.linkHealth,
    licensedLinkHealth: tally.licensedLinkHealth,
    licensedSourceClassCounts: sortedKeys(tally.licensedSourceClasses),
    licensedSourceDomainCounts: sortedKeys(tally.licensedDomains),
    sourceVerification: { scope: 'licensed', confidence: tally.licensedConfidence, ...tally.review, reviewers: { ...tally.reviewers }, asOf: corpus.manifest.asOf },
    factAccuracy,
    paidLicensing: SPLICE,
    notes: HEALTH_NOTES,
  };
  const text = serializeThroughSchema(healthSchema, health);
  const [head, tail] = text.split(JSON.stringify(SPLICE));
  if (head === undefined || tail === undefined) throw new Error('health splice marker missing');
  const licensed = Math.max(tally.licensedRows, 1);
  return {
    head,
    tail,
    readinessInputs: {
      thresholds: corpus.manifest.readiness.thresholds,
      commercialRelease: {
        approved: corpus.manifest.readiness.commercialRelease.approved,
        decidedAt: corpus.manifest.readiness.commercialRelease.decidedAt,
        note: corpus.manifest.readiness.commercialRelease.note,
      },
      strictAudit: {
        present: factAccuracy !== null,
        artifact: factAccuracy ? 'fact-audit-latest' : null,
        completedAt: factAccuracy?.completedAt ?? null,
        recordsAudited: factAccuracy?.recordsAudited ?? 0,
        factErrors: factAccuracy?.factErrors ?? 0,
        errorRateUpperBound: factAccuracy?.errorRateUpperBound ?? null,
      },
      dataHealth: {
        licensedPrograms: tally.licensedRows,
        citiesCovered: tally.citiesCovered,
        deadLinkShare: round(tally.licensedLinkHealth.dead / licensed),
        unverifiedShare: round(tally.licensedConfidence.unverified / licensed),
      },
    },
  };
}

/** Rounds a share to 4 decimals so the JSON is stable and readable. */
function round(share: number): number {
  return Math.round(share * 10_000) / 10_000;
}

function sortedKeys(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
