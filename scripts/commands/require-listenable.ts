/**
 * Checks, before any side effect, that the addresses `hra serve` will listen on can be bound now, so that
 * `npm start` refuses a busy port before it builds or repoints anything. A port taken in between still
 * fails `hra serve` itself, on the same line.
 */
import { createServer } from 'node:http';
import type { GatewayConfig } from '../../gateway/config/parse-gateway-config.ts';
import { listenOn } from '../../gateway/http/listen-on.ts';
import type { CliFailure } from '../cli-failure.ts';
import { describeStartFailure } from './describe-start-failure.ts';

/** Binds and releases the API port (and the metrics port when set); throws the CliFailure `hra serve` would print. */
export async function requireListenable(config: GatewayConfig): Promise<void> {
  for (const port of config.metricsPort === undefined ? [config.port] : [config.port, config.metricsPort]) {
    const server = createServer();
    let failure: CliFailure | undefined;
    await listenOn(server, port, config.host).catch((error: unknown) => {
      failure = describeStartFailure(error, config);
    });
    if (failure !== undefined) throw failure;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
