/** Turns a gateway start-up failure into the one line `hra serve` prints, naming the setting at fault. */
import type { GatewayConfig } from '../../gateway/config/parse-gateway-config.ts';
import { KeyStoreMissingError, KeyStoreUnavailableError } from '../../gateway/keys/key-errors.ts';
import { CliFailure } from '../cli-failure.ts';
import { missingKeyStore } from './open-cli-key-store.ts';

/**
 * A listen error names its setting (`--host 999.1.1.1: ...` rather than `getaddrinfo ENOTFOUND`), a
 * missing or unusable key store names `--keys`; anything else (a refused snapshot names its file) keeps
 * its first line.
 */
export function describeStartFailure(error: unknown, config: GatewayConfig): CliFailure {
  if (error instanceof KeyStoreMissingError) return missingKeyStore(config.sources.keys, config.keys);
  // As `hra keys` says it (open-cli-key-store.ts): the message names the store, the prefix the setting.
  if (error instanceof KeyStoreUnavailableError) return new CliFailure(`${config.sources.keys}: ${error.message.split('\n')[0] ?? ''}`);
  const system = error as NodeJS.ErrnoException & { port?: number };
  const onMetricsPort = system.port !== undefined && system.port === config.metricsPort && system.port !== config.port;
  const port = onMetricsPort ? `${config.sources.metricsPort} ${config.metricsPort}` : `${config.sources.port} ${config.port}`;
  switch (system.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EADDRNOTAVAIL':
      return new CliFailure(`${config.sources.host} ${config.host}: not an address of this machine that can be listened on (${system.code})`);
    case 'EADDRINUSE':
      return new CliFailure(`${port}: already in use on ${config.host}`);
    case 'EACCES':
      return new CliFailure(`${port}: permission denied (ports below 1024 need privileges)`);
    default:
      return new CliFailure(((error as Error).message ?? String(error)).split('\n')[0] ?? 'gateway failed to start');
  }
}
