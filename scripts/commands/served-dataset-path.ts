/**
 * The dataset path `hra serve` will serve, read from the arguments before commander (or anything else) is
 * loaded, so that the entry point can start hashing the file first thing (scripts/hra.ts). It follows the
 * rule of parseGatewayConfig (flag, then environment, then default; relative to the working directory)
 * from the same settings table. It is only a head start: the serve command resolves its configuration as
 * always, and the start-up check uses the early hash only for the file it resolves to (load-snapshot.ts).
 */
import { resolve } from 'node:path';
import { GATEWAY_SETTINGS } from '../../gateway/config/gateway-settings.ts';

const DATASET = GATEWAY_SETTINGS.find((setting) => setting.name === 'dataset') as (typeof GATEWAY_SETTINGS)[number];
const FLAG = DATASET.flag.split(' ')[0] as string;

/**
 * The absolute dataset path of `hra <args>` when they name the serve command, else undefined (another
 * command, help asked for, or a `--dataset` with no value: commander will say what is wrong).
 */
export function servedDatasetPath(args: readonly string[], env: Readonly<Record<string, string | undefined>>): string | undefined {
  const at = args.findIndex((arg) => !arg.startsWith('-'));
  if (args[at] !== 'serve') return undefined;
  let flagValue: string | undefined;
  for (let index = at + 1; index < args.length; index++) {
    const arg = args[index] as string;
    // Commander reads nothing after `--` as an option.
    if (arg === '--') break;
    if (arg === '-h' || arg === '--help') return undefined;
    if (arg === FLAG) {
      flagValue = args[++index];
      if (flagValue === undefined) return undefined;
    } else if (arg.startsWith(`${FLAG}=`)) {
      flagValue = arg.slice(FLAG.length + 1);
    }
  }
  const envValue = env[DATASET.env];
  const value = flagValue ?? (envValue !== undefined && envValue !== '' ? envValue : DATASET.default);
  return value === undefined ? undefined : resolve(value);
}
