import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { defaultMaxConnections, readDescriptorLimit } from '../../../gateway/config/default-max-connections.ts';
import { ConfigError, parseGatewayConfig } from '../../../gateway/config/parse-gateway-config.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const machine = (descriptorLimit: number | undefined, cores = 2) => ({ descriptorLimit, cores });

describe('--max-connections', () => {
  it('defaults to the open-file limit less 64 and 4 per core, keeping at least half', () => {
    assert.equal(parseGatewayConfig({}, {}, machine(20_000, 2)).maxConnections, 20_000 - 72);
    assert.equal(parseGatewayConfig({}, {}, machine(1_024, 16)).maxConnections, 1_024 - 128);
    assert.equal(parseGatewayConfig({}, {}, machine(256, 2)).maxConnections, 184);
    assert.equal(parseGatewayConfig({}, {}, machine(64, 2)).maxConnections, 32);
    assert.equal(parseGatewayConfig({}, {}, machine(1, 2)).maxConnections, 1);
    // Not readable (not Linux): the common default of ulimit -n is assumed.
    assert.equal(parseGatewayConfig({}, {}, machine(undefined, 2)).maxConnections, 1_024 - 72);
    assert.equal(parseGatewayConfig({}, {}, machine(undefined, 2)).descriptorLimit, undefined);
    assert.equal(defaultMaxConnections(256, 2), 184);
  });

  it('reads the flag before the environment, and names where the value came from', () => {
    assert.equal(parseGatewayConfig({}, { HRA_MAX_CONNECTIONS: '500' }, machine(256)).maxConnections, 500);
    const config = parseGatewayConfig({ maxConnections: '50' }, { HRA_MAX_CONNECTIONS: '500' }, machine(256));
    assert.equal(config.maxConnections, 50);
    assert.equal(config.sources.maxConnections, '--max-connections');
  });

  for (const bad of ['0', '-1', '1.5', 'many', '1000001', '']) {
    it(`refuses ${JSON.stringify(bad)} with a line naming the flag`, () => {
      assert.throws(() => parseGatewayConfig({ maxConnections: bad }, {}, machine(256)), (error: unknown) => error instanceof ConfigError && /^--max-connections: connection cap must be an integer from 1 to 1000000/.test(error.message));
    });
  }
});

describe('readDescriptorLimit', () => {
  const dir = makeTempDir('hra-limits-');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const limitsFile = (openFiles: string) => {
    const file = join(dir, `limits-${openFiles}`);
    writeFileSync(file, `Limit                     Soft Limit           Hard Limit           Units     \nMax processes             63432                63432                processes \nMax open files            ${openFiles}            files     \nMax locked memory         8388608              8388608              bytes     \n`);
    return file;
  };

  it('reads the soft limit of "Max open files", not the hard one', () => {
    assert.equal(readDescriptorLimit(limitsFile('256                  4096')), 256);
    assert.equal(readDescriptorLimit(limitsFile('unlimited            unlimited')), 1_048_576);
  });

  it('is undefined where the file is missing or says nothing usable', () => {
    assert.equal(readDescriptorLimit(join(dir, 'missing')), undefined);
    assert.equal(readDescriptorLimit(limitsFile('lots                 lots')), undefined);
  });

  it('reads this process\'s own limit on Linux', { skip: process.platform !== 'linux' }, () => {
    assert.ok((readDescriptorLimit() ?? 0) > 0);
  });
});
