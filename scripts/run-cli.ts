/**
 * Runs a commander program the way the operator contract promises for every subcommand, including ones
 * registered later: a failure is one line on stderr (`hra: ...`) and a non-zero exit code, and when the
 * command was asked for `--json` the last stdout line is `{"ok": false, "error": ..., ...}` as well.
 */
import { Command, CommanderError, type Option } from 'commander';
import { CliFailure, printJson } from './cli-failure.ts';
import { ModuleLoadFailure } from './module-load-failure.ts';

/** Exit code of a failure nobody anticipated (EX_SOFTWARE): a bug, reported on one line all the same. */
const UNEXPECTED_EXIT_CODE = 70;

/** How runCli reports what it cannot leave to the command. */
export interface RunCliOptions {
  /**
   * The line for a command's modules that did not load (a command loads its action when it runs, through
   * loadModules): with it, such a failure is that line about the loader's error and exit 1, as when hra's own
   * modules do not load; without, it is an unexpected failure.
   */
  readonly describeLoadFailure?: (error: unknown) => string;
}

/** Parses `argv` (`from: 'node'`: process.argv; `'user'`: arguments only) and runs the command; resolves to the exit code. */
export async function runCli(program: Command, argv: readonly string[], from: 'node' | 'user' = 'node', options: RunCliOptions = {}): Promise<number> {
  const args = from === 'node' ? argv.slice(2) : [...argv];
  const required = deferRequiredOptions(program);
  let invoked: Command | undefined;
  program.hook('preAction', (_root, action) => {
    invoked = action;
    for (const command of lineage(action)) {
      for (const option of required.get(command) ?? []) {
        if (command.getOptionValue(option.attributeName()) === undefined) {
          command.error(`error: required option '${option.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue' });
        }
      }
    }
  });
  for (const command of commandTree(program)) {
    command
      .exitOverride()
      .showSuggestionAfterError(true)
      .configureOutput({ writeErr: (text) => process.stderr.write(text), outputError: (text) => process.stderr.write(`hra: ${oneLine(text)}\n`) });
  }
  try {
    await program.parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    // Once the action runs, its parsed options decide; before (a parse error), the words typed do.
    const json = invoked === undefined ? requestsJson(program, args) : invoked.opts().json === true;
    // Commander printed its own errors through outputError; after a help text it printed nothing yet.
    return reportFailure(error, { json, alreadyPrinted: error instanceof CommanderError && error.code !== 'commander.help', ...options });
  }
}

/**
 * Prints a failure as the contract wants it and returns the exit code: one `hra: ` line on stderr (unless
 * commander printed it already) and, with `json`, one `{"ok": false, ...}` line on stdout.
 */
export function reportFailure(error: unknown, options: { json: boolean; alreadyPrinted?: boolean } & RunCliOptions): number {
  let line: string;
  let exitCode: number;
  let extra: Record<string, unknown> = {};
  if (error instanceof CommanderError) {
    // Help and --version end parsing with exit code 0: not failures.
    if (error.exitCode === 0) return 0;
    line = error.message === '(outputHelp)' ? 'a subcommand is required (see the help above)' : oneLine(error.message);
    exitCode = error.exitCode;
  } else if (error instanceof CliFailure) {
    line = collapseLines(error.message);
    exitCode = error.exitCode;
    extra = { ...(error.problems === undefined ? {} : { problems: error.problems }), ...error.details };
  } else if (options.describeLoadFailure !== undefined && error instanceof ModuleLoadFailure) {
    line = collapseLines(options.describeLoadFailure(error.cause));
    exitCode = 1;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    line = `unexpected failure: ${collapseLines(message)}`;
    exitCode = UNEXPECTED_EXIT_CODE;
  }
  if (options.alreadyPrinted !== true) process.stderr.write(`hra: ${line}\n`);
  if (options.json) printJson({ ok: false, error: line, ...extra });
  return exitCode;
}

/**
 * A message as one line: a library's text (a JSON parse error quoting the input, a driver's detail) may
 * carry newlines, and the contract promises one stderr line whatever the message came from.
 */
function collapseLines(message: string): string {
  return message.trim().replace(/\s*[\r\n]+\s*/g, ' ');
}

/** Commander's error text as one lowercase-led line: `error: unknown option '--x'\n(Did you mean --y?)` -> `unknown option '--x' (did you mean --y?)`. */
function oneLine(text: string): string {
  return text
    .trim()
    .replace(/^error: /, '')
    .split('\n')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' ')
    .replace('(Did you mean', '(did you mean');
}

/**
 * Commander checks required options before unknown ones, so `--corpsu corpus` would be reported as a
 * missing `--corpus` and the typo never named. Required options are therefore checked in a preAction hook,
 * which runs after the unknown-option check, with commander's own message.
 */
function deferRequiredOptions(program: Command): Map<Command, Option[]> {
  const required = new Map<Command, Option[]>();
  for (const command of commandTree(program)) {
    const options = command.options.filter((option) => option.mandatory);
    for (const option of options) option.mandatory = false;
    if (options.length > 0) required.set(command, options);
  }
  return required;
}

/** Whether `args` ask the command they name for JSON: that command has `--json` and it appears before `--`. */
function requestsJson(program: Command, args: readonly string[]): boolean {
  let command = program;
  for (const arg of args) {
    if (arg.startsWith('-')) break;
    const sub = command.commands.find((candidate) => candidate.name() === arg || candidate.aliases().includes(arg));
    if (sub === undefined) break;
    command = sub;
  }
  const end = args.indexOf('--');
  const words = end === -1 ? args : args.slice(0, end);
  return command.options.some((option) => option.long === '--json') && words.includes('--json');
}

function commandTree(command: Command): Command[] {
  return [command, ...command.commands.flatMap((sub) => commandTree(sub))];
}

function lineage(command: Command): Command[] {
  const chain: Command[] = [];
  for (let current: Command | null = command; current !== null; current = current.parent) chain.push(current);
  return chain;
}
