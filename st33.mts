import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGatewayConfig } from './gateway/config/parse-gateway-config.ts';
import { openKeyStore } from './gateway/keys/sqlite-key-store.ts';
import { createGatewayLogger } from './gateway/observability/gateway-logger.ts';
import { startGateway } from './gateway/start-gateway.ts';
const dir = mkdtempSync(join(tmpdir(), 'hra-st33-'));
const keys = join(dir, 'k.sqlite'); await openKeyStore(keys, { now: () => new Date() }).close();
const config = parseGatewayConfig({ dataset: process.argv[2], keys, port: '0', host: '127.0.0.1' }, {});
const times: number[] = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const g = await startGateway(config, createGatewayLogger({ level: 'silent' }));
  times.push(performance.now() - t);
  await g.close();
}
console.log(times.map((x) => Math.round(x)).join(' '));
