/**
 * Two real gateways for the differential tests of the fast path: one as served (fast path ahead of Koa),
 * and one over the same snapshot, key store, limits file, cursor secret and routes answering through Koa
 * alone. Each logs to its own captured logger, so their request lines can be compared too.
 */
import { join } from 'node:path';
import { parseGatewayConfig } from '../../gateway/config/parse-gateway-config.ts';
import type { RouteTable } from '../../gateway/routes/route-entry.ts';
import { startGateway, type RunningGateway } from '../../gateway/start-gateway.ts';
import { captureLogger, type CapturedLog } from '../gateway/observability/capture-logger.ts';
import { startTestGateway, type TestGateway, type TestKeys } from './start-test-gateway.ts';

/** The key a differential request sends: a test key, none, one of the wrong shape, or a well-formed one no store holds. */
export type KeyName = keyof TestKeys | 'none' | 'malformed' | 'unknown';

/** The pair, and what each logged. */
export interface FastAndKoaGateways {
  fast: TestGateway;
  koa: RunningGateway;
  fastLog: CapturedLog;
  koaLog: CapturedLog;
  /** The `X-Api-Key` of `name` (both gateways share the key store); undefined for none. */
  keyOf(name: KeyName): string | undefined;
  /**
   * Resolves once neither gateway is compressing a body: a body asked for in a coding is compressed after its
   * first answer, so waiting before each request keeps the two answering alike (same coding, same tag).
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Options both gateways share. */
export interface FastAndKoaOptions {
  /** The `--limits` file's JSON. */
  limits: unknown;
  now: () => number;
  cursorSecret: string;
  /** A copy of the route table to serve; the gateway's own unless told. */
  routes?: RouteTable;
}

/** Starts both on ephemeral loopback ports. */
export async function startFastAndKoaGateways(options: FastAndKoaOptions): Promise<FastAndKoaGateways> {
  const fastLog = captureLogger();
  const koaLog = captureLogger();
  const { limits, now, cursorSecret, routes } = options;
  const fast = await startTestGateway({ limits, now, log: fastLog.log, flags: { cursorSecret }, routes });
  const config = parseGatewayConfig({ dataset: fast.snapshotFile, keys: join(fast.dir, 'keys.sqlite'), limits: join(fast.dir, 'limits.json'), port: '0', host: '127.0.0.1', cursorSecret }, {});
  const koa = await startGateway(config, koaLog.log, { now, fastPath: false, routes });
  return {
    fast,
    koa,
    fastLog,
    koaLog,
    keyOf(name) {
      if (name === 'none') return undefined;
      if (name === 'malformed') return 'not-a-key';
      if (name === 'unknown') return 'hra_c_0000000000000000000000000000000000000';
      return fast.keys[name];
    },
    async settled() {
      await Promise.all([fast.gateway.encodings.settled(), koa.encodings.settled()]);
    },
    async close() {
      await koa.close();
      await fast.close();
    },
  };
}
