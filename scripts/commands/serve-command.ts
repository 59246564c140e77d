/** `hra serve`: runs the gateway until SIGTERM; SIGHUP or a repointed dataset link swaps revisions. */
import { realpathSync } from 'node:fs';
import type { Command } from 'commander';
import { GATEWAY_SETTINGS } from '../../gateway/config/gateway-settings.ts';
import { ConfigError, parseGatewayConfig } from '../../gateway/config/parse-gateway-config.ts';
import { startGateway, type GatewayLog } from '../../gateway/start-gateway.ts';
import { CliFailure } from '../cli-failure.ts';

/** How long shutdown may wait for in-flight requests before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
/** How often the dataset link is checked for a new target. */
const LINK_POLL_MS = 1_000;

/** Registers `hra serve`; its options are the rows of GATEWAY_SETTINGS. */
export function registerServeCommand(program: Command): void {
  const command = program.command('serve').description('serve the API from a snapshot (see README "Configuration")');
  for (const setting of GATEWAY_SETTINGS) command.option(setting.flag, `${setting.help} [env ${setting.env}${setting.default === undefined ? '' : `, default ${setting.default}`}]`);
  command.action(async (flags: Record<string, unknown>) => {
    let config;
    try {
      config = parseGatewayConfig(flags, process.env);
    } catch (error) {
      if (error instanceof ConfigError) throw new CliFailure(error.message);
      throw error;
    }
    const log: GatewayLog = {
      info: (message) => process.stderr.write(`${message}\n`),
      error: (message) => process.stderr.write(`error: ${message}\n`),
    };
    let gateway;
    try {
      gateway = await startGateway(config, log);
    } catch (error) {
      throw new CliFailure((error as Error).message.split('\n')[0] ?? 'gateway failed to start');
    }
    const running = gateway;
    process.stdout.write(`listening on ${running.url}\n`);
    log.info(`serving revision ${running.snapshots.current.revision} from ${config.dataset}`);

    const reload = (why: string) => {
      const result = running.reload();
      if (result.ok) log.info(`${why}: serving revision ${result.revision}`);
      else log.error(`${why}: new snapshot refused, still serving ${running.snapshots.current.revision}: ${result.reason}`);
    };
    let linkTarget = safeRealpath(config.dataset);
    const poll = setInterval(() => {
      const target = safeRealpath(config.dataset);
      if (target !== undefined && target !== linkTarget) {
        linkTarget = target;
        reload('dataset link repointed');
      }
    }, LINK_POLL_MS);
    poll.unref();
    process.on('SIGHUP', () => reload('SIGHUP'));

    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info(`${signal}: draining in-flight requests`);
      clearInterval(poll);
      setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref();
      running.close().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error(`shutdown: ${(error as Error).message}`);
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
