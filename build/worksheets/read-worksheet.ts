/**
 * Reads back a worksheet written by writeWorksheet, as a spreadsheet saves it: a UTF-8 byte order mark,
 * CRLF or LF line ends, quoted cells holding commas, quotes and line breaks. The header must be exactly
 * the columns, in order; every problem names the file and the row as the spreadsheet numbers it.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { unguardCell } from './spreadsheet-cell.ts';

/** A worksheet larger than this is refused before it is parsed: 57,000 records times five fields fit well inside. */
export const MAX_WORKSHEET_BYTES = 64 * 1024 * 1024;

/** One data row: its cells by column, and its number as a spreadsheet shows it (the header is row 1). */
export interface WorksheetRow<C extends string> {
  row: number;
  cells: Record<C, string>;
}

/** A worksheet that cannot be read as the columns want; the message names the file and row. */
export class WorksheetError extends Error {
  override name = 'WorksheetError';
}

/** Reads `file` (named `label` in problems) against `columns`; throws WorksheetError on the first problem. */
export function readWorksheet<const C extends readonly string[]>(file: string, label: string, columns: C): WorksheetRow<C[number]>[] {
  const text = readBounded(file, label);
  let records: string[][];
  try {
    // Both line ends at once: a sheet edited in two programs can hold either.
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false, record_delimiter: ['\r\n', '\n'] }) as string[][];
  } catch (error) {
    throw new WorksheetError(`${label}: not a readable CSV worksheet: ${(error as Error).message}`);
  }
  const [header, ...data] = records;
  if (header === undefined) throw new WorksheetError(`${label}: empty worksheet (the header row ${columns.join(',')} is missing)`);
  columns.forEach((column, index) => {
    if (header[index] !== column) {
      const found = header[index] === undefined ? 'nothing' : `"${header[index]}"`;
      throw new WorksheetError(`${label} row 1: column ${index + 1} must be "${column}", found ${found} (columns must stay ${columns.join(',')}, in that order)`);
    }
  });
  if (header.length > columns.length) throw new WorksheetError(`${label} row 1: column ${columns.length + 1} "${header[columns.length]}" is not a worksheet column (columns must stay ${columns.join(',')})`);
  return data.map((cells, index) => {
    const row = index + 2;
    if (cells.length !== columns.length) throw new WorksheetError(`${label} row ${row}: ${cells.length} cells, the header has ${columns.length}`);
    return { row, cells: Object.fromEntries(columns.map((column, at) => [column, unguardCell(cells[at] as string)])) as Record<C[number], string> };
  });
}

function readBounded(file: string, label: string): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new WorksheetError(`${label}: cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new WorksheetError(`${label}: not a regular file`);
    if (stat.size > MAX_WORKSHEET_BYTES) throw new WorksheetError(`${label}: ${stat.size} bytes, more than a worksheet's ${MAX_WORKSHEET_BYTES}`);
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, bytes, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, read));
    } catch {
      throw new WorksheetError(`${label}: not UTF-8 text (save the worksheet as CSV UTF-8)`);
    }
  } finally {
    closeSync(fd);
  }
}
