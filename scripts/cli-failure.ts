/** An expected command failure: printed as one line on stderr, exit code 1, no stack trace. */
export class CliFailure extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'CliFailure';
    this.exitCode = exitCode;
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
