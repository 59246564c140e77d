/**
 * A fact audit's summary must agree with itself: the errors within the records audited, and a stated
 * bound and rate equal to the ones its counts give, so a hand-edited bound cannot turn readiness green.
 */
import { errorRateUpperBound } from '../contract/error-rate-upper-bound.ts';
import type { ReportArtifact } from './corpus-types.ts';

/** One disagreement: the JSON path in the report and what is wrong there. */
export interface SummaryDisagreement {
  path: string;
  message: string;
}

/** Every disagreement of `report.summary`; none when it has no summary. */
export function checkFactAuditSummary(report: ReportArtifact): SummaryDisagreement[] {
  const summary = report.summary as (ReportArtifact['summary'] & { errorRate?: number | null; errorRateUpperBound?: number | null }) | undefined;
  if (summary === undefined) return [];
  const { recordsAudited, factErrors } = summary;
  if (factErrors > recordsAudited) return [{ path: '$.summary.factErrors', message: `${factErrors} errors in ${recordsAudited} records audited` }];
  const problems: SummaryDisagreement[] = [];
  if (summary.errorRateUpperBound !== undefined) {
    const bound = recordsAudited === 0 ? null : errorRateUpperBound(factErrors, recordsAudited);
    if (summary.errorRateUpperBound !== bound) problems.push({ path: '$.summary.errorRateUpperBound', message: `must be ${bound} (the Clopper-Pearson 95% upper bound of ${factErrors} in ${recordsAudited}), not ${summary.errorRateUpperBound}` });
  }
  if (summary.errorRate !== undefined) {
    const rate = recordsAudited === 0 ? null : Math.round((factErrors / recordsAudited) * 10_000) / 10_000;
    if (summary.errorRate !== rate) problems.push({ path: '$.summary.errorRate', message: `must be ${rate} (${factErrors} / ${recordsAudited}), not ${summary.errorRate}` });
  }
  return problems;
}
