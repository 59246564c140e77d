/** The build-time half of readiness (spec 2.9), stored in the snapshot; the gateway adds infrastructure and time. */
import type { FromSchema } from 'json-schema-to-ts';
import type { readinessThresholdsSchema } from './readiness-schema.ts';

/** Everything readiness needs from the dataset itself. */
export interface ReadinessInputs {
  thresholds: FromSchema<typeof readinessThresholdsSchema>;
  commercialRelease: { approved: boolean; decidedAt: string; note: string };
  strictAudit: {
    present: boolean;
    artifact: string | null;
    completedAt: string | null;
    recordsAudited: number;
    factErrors: number;
    /** The audit's Clopper-Pearson 95% upper bound; null for an audit that publishes none (version 2). Absent in older snapshots. */
    errorRateUpperBound?: number | null;
  };
  dataHealth: { licensedPrograms: number; citiesCovered: number; deadLinkShare: number; unverifiedShare: number };
}
