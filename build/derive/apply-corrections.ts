/** Applies durable manual corrections over a stored program row. */
import type { Correction, ProgramRow } from '../corpus/corpus-types.ts';

/**
 * Returns the row with every correction for it applied, oldest first (ties keep file order), so a later
 * correction of the same field wins. The input row is not modified.
 */
export function applyCorrections(row: ProgramRow, corrections: readonly Correction[]): ProgramRow {
  if (corrections.length === 0) return row;
  const ordered = corrections
    .map((correction, index) => ({ correction, index }))
    .sort((a, b) => (a.correction.date < b.correction.date ? -1 : a.correction.date > b.correction.date ? 1 : a.index - b.index));
  const corrected: ProgramRow = { ...row };
  for (const { correction } of ordered) corrected[correction.field] = correction.value;
  return corrected;
}

/** Groups corrections by `city/programId`, keeping file order within a record. */
export function indexCorrections(corrections: readonly Correction[]): Map<string, Correction[]> {
  const byRecord = new Map<string, Correction[]>();
  for (const correction of corrections) {
    const key = recordKey(correction.city, correction.programId);
    const list = byRecord.get(key);
    if (list) list.push(correction);
    else byRecord.set(key, [correction]);
  }
  return byRecord;
}

/** The key that names one city-program record across evidence, corrections and policy files. */
export function recordKey(city: string, programId: string): string {
  return `${city}/${programId}`;
}
