/**
 * Checks a filled audit worksheet against the sample drawn again: every sampled row once, the tool's cells
 * as written, a verdict on every row. Rows are matched by record and field, so a sorted sheet still reads.
 */
import type { WorksheetRow } from '../worksheets/read-worksheet.ts';
import { AUDIT_COLUMNS, AUDIT_TOOL_COLUMNS, AUDIT_VERDICTS, auditRowKey, type AuditRow, type AuditVerdict } from './audit-worksheet.ts';

/** A problem of one worksheet row (row numbered as a spreadsheet shows it), or of the sheet when `row` is 0. */
export interface WorksheetProblem {
  row: number;
  column: string;
  message: string;
}

/** A row that passed, with its verdict typed. */
export interface CheckedAuditRow extends AuditRow {
  verdict: AuditVerdict;
}

/** Every problem of `rows` against `expected` (the rows the sample's worksheet was written with); empty when it passes. */
export function checkAuditWorksheet(rows: readonly WorksheetRow<(typeof AUDIT_COLUMNS)[number]>[], expected: readonly AuditRow[]): WorksheetProblem[] {
  const wanted = new Map(expected.map((row) => [auditRowKey(row), row]));
  const seen = new Map<string, number>();
  const problems: WorksheetProblem[] = [];
  for (const { row, cells } of rows) {
    const key = auditRowKey(cells);
    const sampled = wanted.get(key);
    if (sampled === undefined) {
      problems.push({ row, column: 'programId', message: `${key} is not a row of the sample (an added row, or an edited city, programId or field)` });
      continue;
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push({ row, column: 'programId', message: `${key} repeats row ${earlier}` });
      continue;
    }
    seen.set(key, row);
    for (const column of AUDIT_TOOL_COLUMNS) {
      if (cells[column] !== sampled[column]) problems.push({ row, column, message: `edited: the sample wrote ${JSON.stringify(sampled[column])}, found ${JSON.stringify(cells[column])}` });
    }
    const verdict = cells.verdict.trim();
    if (!(AUDIT_VERDICTS as readonly string[]).includes(verdict)) {
      problems.push({ row, column: 'verdict', message: `must be one of ${AUDIT_VERDICTS.join(', ')}, found ${JSON.stringify(cells.verdict)}` });
    } else if (verdict === 'mismatch' && cells.observedValue.trim() === '') {
      problems.push({ row, column: 'observedValue', message: 'a mismatch must say what the archived page states' });
    }
  }
  for (const [key] of wanted) {
    if (!seen.has(key) && !problems.some((problem) => problem.message.startsWith(`${key} `))) {
      problems.push({ row: 0, column: 'programId', message: `the row of ${key} is missing (the sample has ${expected.length} rows)` });
    }
  }
  return problems;
}
