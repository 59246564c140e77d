/**
 * The `hra` command line (operator contract: ../shared/operator-contract.md). The only place that
 * touches argv and process.exit; every subcommand lives in scripts/commands/ and registers itself here.
 */
import { Command, CommanderError } from 'commander';
import { CliFailure } from './cli-failure.ts';
import { registerCommands } from './commands/register-commands.ts';

const program = new Command('hra')
  .description('home-repair-api: build, verify and serve the home-repair assistance dataset')
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) })
  .showSuggestionAfterError(true);

registerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander already printed its one line (or the help text, which exits 0).
    process.exitCode = error.exitCode;
  } else if (error instanceof CliFailure) {
    process.stderr.write(`hra: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`hra: unexpected failure: ${message.split('\n')[0]}\n`);
    process.exitCode = 70;
  }
}
