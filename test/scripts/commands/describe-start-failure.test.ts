/** The serve command's start-up failure lines name the setting at fault (a real busy port is tested in start-script.test.ts). */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGatewayConfig } from '../../../gateway/config/parse-gateway-config.ts';
import { KeyStoreMissingError, KeyStoreUnavailableError } from '../../../gateway/keys/key-errors.ts';
import { describeStartFailure } from '../../../scripts/commands/describe-start-failure.ts';

/** A Node system error as listen or getaddrinfo raise it. */
function systemError(code: string, fields: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`${code}: as node reports it`), { code, ...fields });
}

describe('describeStartFailure', () => {
  const config = parseGatewayConfig({ host: 'gateway.internal', port: '8081', metricsPort: '9091', keys: '/srv/keys.sqlite' }, { HRA_DATASET: '/srv/current.sqlite' });
  const cases: ReadonlyArray<[string, Error, string]> = [
    // Looked up by name; only the message is checked here, so no lookup ever leaves the machine.
    ['a host name that does not resolve', systemError('ENOTFOUND', { syscall: 'getaddrinfo', hostname: 'gateway.internal' }),
      '--host gateway.internal: not an address of this machine that can be listened on (ENOTFOUND)'],
    ['an address of another machine', systemError('EADDRNOTAVAIL', { syscall: 'listen', port: 8081 }),
      '--host gateway.internal: not an address of this machine that can be listened on (EADDRNOTAVAIL)'],
    ['the API port in use', systemError('EADDRINUSE', { syscall: 'listen', port: 8081 }), '--port 8081: already in use on gateway.internal'],
    ['the metrics port in use', systemError('EADDRINUSE', { syscall: 'listen', port: 9091 }), '--metrics-port 9091: already in use on gateway.internal'],
    ['a privileged port', systemError('EACCES', { syscall: 'listen', port: 8081 }), '--port 8081: permission denied (ports below 1024 need privileges)'],
    ['a missing key store', new KeyStoreMissingError('/srv/keys.sqlite'), '--keys /srv/keys.sqlite: key store not found (only hra keys create makes a new one)'],
    ['a key store that cannot be used', new KeyStoreUnavailableError('key store unavailable while opening /srv/keys.sqlite: file is not a database'),
      '--keys: key store unavailable while opening /srv/keys.sqlite: file is not a database'],
    ['anything else, first line only', new Error('snapshot /srv/current.sqlite refused: content: mismatch\nmore detail'), 'snapshot /srv/current.sqlite refused: content: mismatch'],
  ];
  for (const [name, error, line] of cases) {
    it(name, () => {
      assert.equal(describeStartFailure(error, config).message, line);
    });
  }

  it('names the environment variable when the value came from there', () => {
    const fromEnv = parseGatewayConfig({}, { HRA_PORT: '8082' });
    assert.equal(describeStartFailure(systemError('EADDRINUSE', { port: 8082 }), fromEnv).message, 'HRA_PORT 8082: already in use on 127.0.0.1');
  });
});
