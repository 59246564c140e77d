/**
 * The `hra` command line (operator contract: ../shared/operator-contract.md). The only place that
 * touches argv and the exit code; every subcommand lives in scripts/commands/ and registers itself here,
 * and run-cli.ts gives each the contract's failure behaviour (one stderr line, `--json` failure objects).
 */
import { Command } from 'commander';
import { registerCommands } from './commands/register-commands.ts';
import { packageVersion } from './package-version.ts';
import { runCli } from './run-cli.ts';

const program = new Command('hra')
  .description('home-repair-api: build, verify and serve the home-repair assistance dataset')
  .version(packageVersion(), '-V, --version', 'print the version of hra (package.json)');

registerCommands(program);

process.exitCode = await runCli(program, process.argv);
