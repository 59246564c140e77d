/** The `hra links report` action: the programs likely closed and the URLs now dead or bot-blocked. */
import { buildLinkReport } from '../../build/links/build-link-report.ts';
import { printJson } from '../cli-failure.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';

/** Prints the report: text for a maintainer, or one JSON object with `--json`. */
export function runLinksReport(flags: { corpus: string; json?: boolean }): void {
  const report = buildLinkReport(loadCorpusOrFail(flags.corpus));
  if (flags.json) {
    printJson(report);
    return;
  }
  const cited = (programs: ReadonlyArray<{ city: string; programId: string }>) => programs.map((p) => `${p.city}/${p.programId}`).join(', ');
  const lines = [`likely closed (404 or 410 at each of the last three check dates): ${report.likelyClosed.length}`];
  for (const entry of report.likelyClosed) lines.push(`  ${entry.city}/${entry.programId}  ${entry.url}  ${entry.dates.join(', ')}`);
  lines.push(`dead or bot-blocked at their latest attempt: ${report.problems.length}`);
  for (const problem of report.problems) {
    lines.push(`  ${problem.outcome} (${problem.httpStatus ?? 'no status'}, ${problem.checkedAt})  ${problem.url}  cited by ${cited(problem.programs)}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
