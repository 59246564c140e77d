/** The build-time half of readiness (spec 2.9), stored in the snapshot; the gateway adds infrastructure and time. */
import type { FromSchema } from 'json-schema-to-ts';
import type { readinessThresholdsSchema } from './readiness-schema.ts';

/** Everything readiness needs from the dataset itself. */
export interface ReadinessInputs {
  thresholds: FromSchema<typeof readinessThresholdsSchema>;
  commercialRelease: { approved: boolean; decidedAt: string; note: string };
  strictAudit: { present: boolean; artifact: string | null; completedAt: string | null; recordsAudited: number; factErrors: number };
  dataHealth: { licensedPrograms: number; citiesCovered: number; deadLinkShare: number; unverifiedShare: number };
}
