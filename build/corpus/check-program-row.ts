/** Checks one program row against the row schema, the vocabularies and its corrections. */
import type { ValidateFunction } from 'ajv';
import type { CorpusProblem } from './corpus-problem.ts';
import type { Correction, ProgramRow, Vocabularies } from './corpus-types.ts';
import { describeFailures } from './schema-validator.ts';
import { applyCorrections } from '../derive/apply-corrections.ts';

/** What a row is checked against; built once per load (per thread). */
export interface ProgramRowContext {
  validateRow: ValidateFunction;
  /** Undefined when vocabularies.json is itself invalid: rows are still checked against the schema. */
  vocabularies: Vocabularies | undefined;
  correctionsFile: string;
}

/**
 * A correction with the line it was written on, so a correction that breaks a row is reported at its own
 * line; plain data, so it can be sent to a worker thread (which would lose an object's identity).
 */
export interface LocatedCorrection {
  correction: Correction;
  line: number;
}

const VOCABULARY_FIELDS = [
  ['category', 'categories'],
  ['projectTypes', 'projectTypes'],
  ['eligibilityType', 'eligibilityTypes'],
  ['specialPopulations', 'specialPopulations'],
] as const;

/** Reports every problem of one row; returns whether the row (and its corrected form) is valid. */
export function checkProgramRow(
  value: unknown,
  where: { file: string; line: number },
  corrections: readonly LocatedCorrection[],
  context: ProgramRowContext,
  problems: CorpusProblem[],
): value is ProgramRow {
  const failures = describeFailures(context.validateRow, value);
  for (const failure of failures) problems.push({ ...where, path: failure.path, message: failure.message });
  // Vocabulary problems are reported beside schema ones (corpus/README.md: every problem at once), for
  // the fields whose shape is right; a field of the wrong type is the schema's problem alone.
  if (context.vocabularies !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    checkVocabulary(value as Partial<Record<VocabularyField, unknown>>, where, context.vocabularies, problems);
  }
  if (failures.length > 0) return false;
  const row = value as ProgramRow;
  for (const { correction, line } of corrections) {
    const corrected = applyCorrections(row, [correction]);
    for (const failure of describeFailures(context.validateRow, corrected)) {
      problems.push({
        file: context.correctionsFile,
        line,
        path: '$.value',
        message: `leaves ${where.file}:${where.line} invalid: ${failure.path} ${failure.message}`,
      });
    }
  }
  return true;
}

type VocabularyField = (typeof VOCABULARY_FIELDS)[number][0];

function checkVocabulary(row: Partial<Record<VocabularyField, unknown>>, where: { file: string; line: number }, vocabularies: Vocabularies, problems: CorpusProblem[]): void {
  for (const [field, vocabulary] of VOCABULARY_FIELDS) {
    const allowed: readonly string[] = vocabularies[vocabulary];
    const stored = row[field];
    if (stored === undefined) continue;
    const values: unknown[] = Array.isArray(stored) ? stored : [stored];
    values.forEach((member, index) => {
      if (typeof member !== 'string' || allowed.includes(member)) return;
      const path = Array.isArray(stored) ? `$.${field}[${index}]` : `$.${field}`;
      problems.push({ ...where, path, message: `${JSON.stringify(member)} is not in vocabularies.json ${vocabulary}` });
    });
  }
}
