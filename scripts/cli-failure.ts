/** A problem located in an input file, as `--json` failures list them (corpus problems have this shape). */
export interface CliProblem {
  readonly file: string;
  readonly line: number;
  readonly path: string;
  readonly message: string;
}

/** What a failure carries besides its one line. */
export interface CliFailureOptions {
  /** Process exit code; default 1. */
  readonly exitCode?: number;
  /** Every problem found, for `--json` output (the one line names only the first). */
  readonly problems?: readonly CliProblem[];
  /** Extra members of the `--json` failure object, such as verify's `checks`. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** An expected command failure: printed as one line on stderr, and as `{"ok": false, ...}` with `--json`; no stack trace. */
export class CliFailure extends Error {
  readonly exitCode: number;
  readonly problems: readonly CliProblem[] | undefined;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(message: string, options: CliFailureOptions = {}) {
    super(message);
    this.name = 'CliFailure';
    this.exitCode = options.exitCode ?? 1;
    this.problems = options.problems;
    this.details = options.details;
  }
}

/** Writes a `--json` result: one JSON object as the last line of stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Progress and timing go to stderr, never stdout (operator contract). */
export function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}
