/**
 * startGateway that cannot listen (its port, or its metrics port, in use) rejects with the listen error
 * and leaves no store connection open: Redis lists no client of it, PostgreSQL no `hra-gateway` session.
 * Without this a refused `hra serve` stayed alive on those connections (issue 34).
 */
import * as assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { parseGatewayConfig } from '../../gateway/config/parse-gateway-config.ts';
import { openKeyStoreAt } from '../../gateway/keys/key-store-url.ts';
import { createGatewayLogger } from '../../gateway/observability/gateway-logger.ts';
import { startGateway } from '../../gateway/start-gateway.ts';
import { postgresServerSkip, startPostgresServer, type PostgresServer } from '../support/postgres-server.ts';
import { redisServerSkip, startRedisServer, type RedisServer } from '../support/redis-server.ts';
import { buildTestSnapshot } from '../support/start-test-gateway.ts';

const skip = postgresServerSkip() || redisServerSkip();
if (skip) console.log(`# skipping the failed-start store tests: ${skip}`);

/** Polls `count` until it is 0 or a second has passed; returns the last count. */
async function settlesToZero(count: () => Promise<number>): Promise<number> {
  const deadline = Date.now() + 1_000;
  let last = await count();
  while (last !== 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    last = await count();
  }
  return last;
}

describe('startGateway on a busy port', { skip }, () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let keysUrl: string;
  let busy: Server;
  let port: number;
  let inspectRedis: Redis;
  let inspectPostgres: pg.Client;

  before(async () => {
    [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
    keysUrl = await postgres.createDatabase();
    await (await openKeyStoreAt(keysUrl, { now: () => new Date(), role: 'cli' })).store.close();
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    port = (busy.address() as AddressInfo).port;
    inspectRedis = new Redis(redis.url);
    inspectPostgres = new pg.Client({ connectionString: keysUrl });
    await inspectPostgres.connect();
  });
  after(async () => {
    inspectRedis?.disconnect();
    await inspectPostgres?.end();
    busy?.close();
    await postgres?.stop();
    await redis?.stop();
  });

  // Every client but the inspecting one; and every session the gateway opened, by its application_name.
  const redisClients = async () => String(await inspectRedis.call('CLIENT', 'LIST')).trim().split('\n').length - 1;
  const gatewaySessions = async () => Number((await inspectPostgres.query("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'hra-gateway'")).rows[0].n);

  for (const [name, flags] of [
    ['the API port', () => ({ port: String(port) })],
    ['the metrics port', () => ({ port: '0', metricsPort: String(port) })],
  ] as const) {
    it(`${name} in use: rejects with EADDRINUSE, and no Redis or PostgreSQL connection is left`, async () => {
      const config = parseGatewayConfig({ dataset: buildTestSnapshot(), keys: keysUrl, host: '127.0.0.1', redis: redis.url, ...flags() }, {});
      await assert.rejects(startGateway(config, createGatewayLogger({ level: 'silent' })), (error: NodeJS.ErrnoException) => error.code === 'EADDRINUSE');
      assert.equal(await settlesToZero(redisClients), 0, 'redis clients left open');
      assert.equal(await settlesToZero(gatewaySessions), 0, 'hra-gateway sessions left open');
    });
  }
});
