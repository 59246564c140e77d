/**
 * Reads and checks one program file (a city's, or national.ndjson): strict text and JSON, every row against
 * the schema, the vocabularies and its corrections, ids unique within the file. The one implementation of
 * the row checks: the loader runs it on its own thread, a build's worker threads run it in the same read
 * and parse that digests the file (build/snapshot/city-tasks.ts), so both report the same problems.
 */
import { checkProgramRow, type LocatedCorrection, type ProgramRowContext } from './check-program-row.ts';
import type { CorpusProblem } from './corpus-problem.ts';
import type { ProgramRow, Vocabularies } from './corpus-types.ts';
import { visitNdjson } from './read-corpus-file.ts';
import { corpusValidator } from './corpus-validators.ts';

/** What every program file of a corpus is checked against: plain data, so a worker thread can be sent it. */
export interface ProgramFileRules {
  /** Undefined when vocabularies.json is itself invalid: rows are still checked against the schema. */
  vocabularies: Vocabularies | undefined;
  /** How problems name corrections.ndjson (`corpus/corrections.ndjson`). */
  correctionsFile: string;
}

/** One program file to check. */
export interface ProgramFileToCheck {
  /** The city it holds (NATIONAL_SLUG for national.ndjson). */
  slug: string;
  /** Absolute path. */
  path: string;
  /** The corpus folder (absolute), which the file must lie inside. */
  root: string;
  /** How problems name it (`corpus/programs/detroit.ndjson`). */
  file: string;
  /** The valid corrections of this city's records, in corrections.ndjson's order, with their lines. */
  corrections: readonly LocatedCorrection[];
}

/** What the loader keeps of a checked file: every id, of invalid rows too (no cascading reference errors), and every problem, in the order found. */
export interface ProgramFileFacts {
  ids: string[];
  problems: CorpusProblem[];
}

/** A checked file: its facts and its valid rows, in file order. */
export interface CheckedProgramFile extends ProgramFileFacts {
  rows: ProgramRow[];
}

/** Checks one program file; made once per thread by createProgramFileCheck. */
export type ProgramFileCheck = (file: ProgramFileToCheck) => CheckedProgramFile;

/** Returns the check of one file under `rules`, with this thread's row validator. */
export function createProgramFileCheck(rules: ProgramFileRules): ProgramFileCheck {
  const context: ProgramRowContext = { validateRow: corpusValidator('programRow'), ...rules };
  return ({ path, root, file, corrections }) => {
    const byId = new Map<string, LocatedCorrection[]>();
    for (const located of corrections) {
      const list = byId.get(located.correction.programId);
      if (list) list.push(located);
      else byId.set(located.correction.programId, [located]);
    }
    const problems: CorpusProblem[] = [];
    const ids = new Set<string>();
    const rows: ProgramRow[] = [];
    // Visited, not listed: the rows of a file checked and dropped must die young (visitNdjson).
    visitNdjson(path, root, file, problems, (value, line, canonical) => {
      const id = (value as { id?: unknown }).id;
      const own = typeof id === 'string' ? (byId.get(id) ?? []) : [];
      // Like city slugs, the id of an invalid row still counts as known (no cascading reference errors).
      if (typeof id === 'string') {
        if (ids.has(id)) problems.push({ file, line, path: '$.id', message: `duplicate program id ${JSON.stringify(id)} in this city` });
        ids.add(id);
      }
      if (canonical && checkProgramRow(value, { file, line }, own, context, problems)) rows.push(value);
    });
    return { ids: [...ids], problems, rows };
  };
}

/**
 * Where the loader has the cities' program files checked: on its own thread by default, or on a build's
 * worker threads (build/snapshot/city-worker-pool.ts), which check each file in the read that digests it.
 */
export interface ProgramFileChecker {
  /**
   * Starts checking `files` under `rules` and returns each file's facts, in the order given, as they are
   * read. Called once per load, as early as the rules are known; the loader reads its other files meanwhile.
   */
  checkFiles(files: readonly ProgramFileToCheck[], rules: ProgramFileRules): Iterable<ProgramFileFacts>;
}

/** The checker that checks on the calling thread, file by file as the facts are read. */
export function checkProgramFilesHere(check: ProgramFileCheck): ProgramFileChecker {
  return {
    *checkFiles(files) {
      for (const file of files) yield check(file);
    },
  };
}
