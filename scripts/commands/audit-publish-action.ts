/**
 * The `hra audit publish` action: draws the sample again from the worksheet's draw file and the corpus,
 * checks the filled worksheet against it, and writes `reports/fact-audit-latest.json`; all or nothing.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditDrawPath, parseAuditDraw } from '../../build/audit/audit-draw.ts';
import { AUDIT_COLUMNS, auditWorksheetRows } from '../../build/audit/audit-worksheet.ts';
import { checkAuditWorksheet, type CheckedAuditRow } from '../../build/audit/check-audit-worksheet.ts';
import { composeAuditReport } from '../../build/audit/compose-audit-report.ts';
import { drawAuditSample } from '../../build/audit/draw-audit-sample.ts';
import { readAuditFrame } from '../../build/audit/read-audit-frame.ts';
import { isChangeTimestamp } from '../../build/changes/is-change-timestamp.ts';
import { checkFactAuditSummary } from '../../build/corpus/check-fact-audit-summary.ts';
import { corpusValidator } from '../../build/corpus/corpus-validators.ts';
import { describeFailures } from '../../build/corpus/schema-validator.ts';
import { readWorksheet, WorksheetError } from '../../build/worksheets/read-worksheet.ts';
import { CliFailure, printJson, progress, type CliProblem } from '../cli-failure.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';

/** The flags as commander hands them over. */
export interface AuditPublishFlags {
  corpus: string;
  worksheet: string;
  draw?: string;
  reviewer: string;
  at?: string;
  illustrative?: boolean;
  json?: boolean;
}

/** Publishes the audit, or fails naming the first problem (every one listed on stderr and in `--json`). */
export function runAuditPublish(flags: AuditPublishFlags): void {
  if (flags.at !== undefined && !isChangeTimestamp(flags.at)) throw new CliFailure(`--at ${JSON.stringify(flags.at)}: must be an ISO 8601 date-time with a timezone, such as 2026-11-16T06:00:00Z`);
  if (flags.reviewer.trim() === '') throw new CliFailure('--reviewer: must name the person who filled the worksheet');
  const drawFile = flags.draw ?? auditDrawPath(flags.worksheet);
  let drawText: string;
  try {
    drawText = readFileSync(drawFile, 'utf8');
  } catch (error) {
    throw new CliFailure(`${flags.draw === undefined ? '--worksheet' : '--draw'} ${drawFile}: the sample's draw file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); hra audit sample writes it beside the worksheet`);
  }
  let draw;
  try {
    draw = parseAuditDraw(drawText, drawFile);
  } catch (error) {
    throw new CliFailure((error as Error).message);
  }
  let rows;
  try {
    rows = readWorksheet(flags.worksheet, flags.worksheet, AUDIT_COLUMNS);
  } catch (error) {
    if (error instanceof WorksheetError) throw new CliFailure(error.message);
    throw error;
  }
  const corpus = loadCorpusOrFail(flags.corpus);
  const frame = readAuditFrame(corpus, draw.strata);
  const sample = drawAuditSample(frame, Math.min(draw.size, frame.length), draw.seed);
  if (sample.frameDigest !== draw.frameDigest || sample.frameSize !== draw.frameSize) {
    throw new CliFailure(`${drawFile}: the corpus's frame is not the one the sample was drawn from (${draw.frameSize} records, ${draw.frameDigest}; now ${sample.frameSize}, ${sample.frameDigest}): publish against the corpus the sample was drawn from, or draw a new sample`);
  }
  const problems = checkAuditWorksheet(rows, auditWorksheetRows(sample));
  if (problems.length > 0) {
    const listed: CliProblem[] = problems.map(({ row, column, message }) => ({ file: flags.worksheet, line: row, path: column, message }));
    for (const problem of listed) progress(describe(problem));
    throw new CliFailure(`worksheet refused, nothing published: ${describe(listed[0] as CliProblem)}`, { problems: listed });
  }
  const completedAt = flags.at === undefined ? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') : flags.at;
  const checked = rows.map(({ cells }) => ({ ...cells, verdict: cells.verdict.trim() }) as CheckedAuditRow);
  const report = composeAuditReport(draw, checked, sample.records, { completedAt, reviewer: flags.reviewer.trim(), illustrative: flags.illustrative === true });
  // The loader's own checks, before a byte is written: a report it would refuse is never published.
  const failures = [...describeFailures(corpusValidator('reportArtifact'), report).map((failure) => `${failure.path}: ${failure.message}`), ...checkFactAuditSummary(report).map((d) => `${d.path}: ${d.message}`)];
  if (failures.length > 0) throw new CliFailure(`the composed report does not validate: ${failures[0]}`);
  const target = join(corpus.root, 'reports', 'fact-audit-latest.json');
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(report, null, 2)}\n`);
  renameSync(temporary, target);
  const summary = report.summary as Record<string, unknown>;
  progress(`audit publish: ${String(summary.factErrors)} errors in ${String(summary.recordsAudited)} records audited; 95% upper bound ${String(summary.errorRateUpperBound)}; wrote ${target}`);
  if (flags.json) printJson({ ok: true, report: target, completedAt, ...summary });
}

function describe(problem: CliProblem): string {
  return problem.line === 0 ? `${problem.file}: ${problem.message}` : `${problem.file} row ${problem.line} column ${problem.path}: ${problem.message}`;
}
