/** Writes a worksheet a person fills in a spreadsheet: a header row, then one row per line, formulas neutralised. */
import { stringify } from 'csv-stringify/sync';
import { guardCell } from './spreadsheet-cell.ts';

/** The CSV text of `rows` under `columns` (every cell quoted where it must be, CRLF line ends as RFC 4180 has them). */
export function writeWorksheet<const C extends readonly string[]>(columns: C, rows: readonly Record<C[number], string>[]): string {
  const cells = rows.map((row) => columns.map((column) => guardCell(row[column as C[number]])));
  // A lone carriage return is a line end to some readers: a cell holding one is quoted too.
  return stringify([[...columns], ...cells], { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}
