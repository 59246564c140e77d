/** Refuses link-check attempts whose outcome contradicts their recorded status under the checker's own rules. */
import { outcomesAllowedFor } from '../links/status-outcomes.ts';
import type { CorpusProblem } from './corpus-problem.ts';
import type { LinkCheck } from './corpus-types.ts';

/**
 * Reports each attempt (already schema-valid) whose `outcome` no response with its `httpStatus` could have
 * been classified as (corpus/README.md, "Link checks"): a hand edit or an old tool cannot publish a
 * verdict the checker would never give.
 */
export function checkLinkOutcomes(
  attempts: readonly LinkCheck[],
  where: { file: string; lineOf: (attempt: LinkCheck) => number },
  problems: CorpusProblem[],
): void {
  for (const attempt of attempts) {
    const allowed = outcomesAllowedFor(attempt.httpStatus);
    if (allowed.includes(attempt.outcome)) continue;
    const status = attempt.httpStatus === null ? 'no response (httpStatus null)' : `httpStatus ${attempt.httpStatus}`;
    problems.push({
      file: where.file,
      line: where.lineOf(attempt),
      path: '$.outcome',
      message: `${JSON.stringify(attempt.outcome)} contradicts ${status}: the outcome rules allow ${allowed.join(' or ')}`,
    });
  }
}
