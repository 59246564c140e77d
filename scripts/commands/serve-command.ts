/**
 * `hra serve`: runs the gateway until SIGTERM or SIGINT, which drain it gracefully (readiness fails, the
 * listener closes, in-flight requests complete; exit 0 within 10 s, 1 if requests had to be cut off).
 * SIGHUP, or a new file at the dataset path (a repointed `current.sqlite`, checked every second), checks
 * the new snapshot and swaps to it; a refused one is logged and the old one keeps serving. The action
 * (serve-action.ts) and the gateway load when the command runs: every other command registers this one.
 */
import type { Command } from 'commander';
import { GATEWAY_SETTINGS } from '../../gateway/config/gateway-settings.ts';
import type { ServeCommandOptions } from './serve-action.ts';
import { loadModules } from '../module-load-failure.ts';

export type { ServeCommandOptions };

/** Registers `hra serve`; its options are the rows of GATEWAY_SETTINGS. */
export function registerServeCommand(program: Command, options: ServeCommandOptions = {}): void {
  const command = program.command('serve').description('serve the API from a snapshot (see docs/operators.md "Configuration")');
  for (const setting of GATEWAY_SETTINGS) command.option(setting.flag, `${setting.help} [env ${setting.env}${setting.default === undefined ? '' : `, default ${setting.default}`}]`);
  command.action(async (flags: Record<string, unknown>) => (await loadModules(() => import('./serve-action.ts'))).runServe(flags, options));
}
