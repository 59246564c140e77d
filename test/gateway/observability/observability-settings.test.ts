/** The observability settings of parseGatewayConfig: `--log-level` and `--metrics-port`. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseGatewayConfig } from '../../../gateway/config/parse-gateway-config.ts';

describe('parseGatewayConfig observability settings', () => {
  const cases: ReadonlyArray<{ name: string; flags?: Record<string, unknown>; env?: Record<string, string>; logLevel?: string; metricsPort?: number | undefined; error?: RegExp }> = [
    { name: 'defaults: info, metrics off', logLevel: 'info', metricsPort: undefined },
    { name: 'the flag', flags: { logLevel: 'debug', metricsPort: '9464' }, logLevel: 'debug', metricsPort: 9464 },
    { name: 'the environment', env: { HRA_LOG_LEVEL: 'silent', HRA_METRICS_PORT: '0' }, logLevel: 'silent', metricsPort: 0 },
    { name: 'the flag over the environment', flags: { logLevel: 'warn' }, env: { HRA_LOG_LEVEL: 'trace' }, logLevel: 'warn' },
    { name: 'a level in capitals', env: { HRA_LOG_LEVEL: 'ERROR' }, logLevel: 'error' },
    { name: 'an unknown level', flags: { logLevel: 'verbose' }, error: /^--log-level: log level must be one of trace, .*silent, got "verbose"$/ },
    { name: 'a metrics port that is not a number', env: { HRA_METRICS_PORT: 'nine' }, error: /^HRA_METRICS_PORT: port must be an integer from 0 to 65535, got "nine"$/ },
    { name: 'a metrics port out of range', flags: { metricsPort: '70000' }, error: /^--metrics-port: port must be/ },
    { name: 'the metrics port equal to the API port', flags: { port: '8080', metricsPort: '8080' }, error: /^--metrics-port: metrics port must differ from the API port, got 8080$/ },
  ];
  for (const testCase of cases) {
    it(testCase.name, () => {
      const parse = () => parseGatewayConfig(testCase.flags ?? {}, testCase.env ?? {});
      if (testCase.error) {
        assert.throws(parse, (error: unknown) => error instanceof ConfigError && testCase.error!.test(error.message));
        return;
      }
      const config = parse();
      assert.equal(config.logLevel, testCase.logLevel);
      if ('metricsPort' in testCase) assert.equal(config.metricsPort, testCase.metricsPort);
      assert.ok(Object.isFrozen(config));
    });
  }
});
