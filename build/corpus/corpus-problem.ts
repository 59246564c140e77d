/** One problem found in a corpus, located by file, line and JSON path. */
export interface CorpusProblem {
  /** Path relative to the corpus root's parent, e.g. `corpus/programs/detroit.ndjson`. */
  file: string;
  /** 1-based line; 0 when the problem concerns a whole file (missing, unreadable). */
  line: number;
  /** JSON path inside the line's value, `$` for the value itself. */
  path: string;
  message: string;
}

/** Renders a problem as `file:line $.path: message`, the one format maintainers see. */
export function formatProblem(problem: CorpusProblem): string {
  const where = problem.line > 0 ? `${problem.file}:${problem.line}` : problem.file;
  return `${where} ${problem.path}: ${problem.message}`;
}

/** Thrown by loadCorpus when any problem is found; carries all of them, in file order. */
export class CorpusInvalidError extends Error {
  readonly problems: readonly CorpusProblem[];

  constructor(problems: readonly CorpusProblem[]) {
    const first = problems[0];
    const head = first ? formatProblem(first) : 'no problems';
    super(problems.length === 1 ? head : `${head} (and ${problems.length - 1} more problems)`);
    this.name = 'CorpusInvalidError';
    this.problems = problems;
  }
}
