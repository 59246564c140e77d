/**
 * The request line written as bytes into the gateway's batch (byte-batched-stream.ts) is byte for byte
 * what pino writes for the same fields through the same destination, across the pieces the writer
 * remembers as bytes (opening per millisecond, middle per method, route and status, fields per key).
 */
import * as assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { LicensedKey } from '../../../gateway/keys/key-lookup.ts';
import { createByteBatchedStream, type ByteSink } from '../../../gateway/observability/byte-batched-stream.ts';
import { createGatewayLogger, type GatewayLogger } from '../../../gateway/observability/gateway-logger.ts';
import { logRequestLine, requestLogFields, type RequestLogFacts } from '../../../gateway/observability/request-log-line.ts';

/** A gateway logger over a byte batch whose chunks are kept; `flush` returns the bytes written since the last call. */
function byteLogger(): { log: GatewayLogger; flush: () => Buffer } {
  const chunks: Buffer[] = [];
  const sink: ByteSink = { write: (chunk) => chunks.push(chunk), flushSync: () => undefined };
  const stream = createByteBatchedStream(sink, { ms: 20, maxBytes: 64 * 1024 });
  return {
    log: createGatewayLogger({ level: 'info', destination: stream }),
    flush: () => {
      stream.flushSync();
      return Buffer.concat(chunks.splice(0));
    },
  };
}

const PLAINTEXT_KEY = 'hra_c_NC9smSt7wkr3IvumaQMcSXAIBrXiI4TWvmIUZg';

function keyOf(id: string, tier: string): LicensedKey {
  return { id, tier, cities: null, expiresAt: null, key: PLAINTEXT_KEY, apiKey: PLAINTEXT_KEY } as unknown as LicensedKey;
}

const AWKWARD = [
  'plain-request-id-0001',
  'with "quotes" inside',
  'back\\slash and \\"escaped quote',
  'new\nline, tab\t, nul\u0000, unit separator\u001f, delete\u007f',
  'unicode: é ñ 漢字 🚧 \u2028 \u2029',
  'lone surrogates: \ud800 and \udfff',
  `long ${'x'.repeat(120)} "quoted"`,
  '',
];

describe('logRequestLine into a byte batch', () => {
  beforeEach(() => {
    mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 10, 26, 10, 0, 0, 123) });
    mock.method(performance, 'now', () => 5000.123456);
  });
  afterEach(() => {
    mock.timers.reset();
    mock.restoreAll();
  });

  it('writes the bytes pino writes, line after line, as the time, route, method, status and key change', () => {
    const base: RequestLogFacts = { requestId: 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d', method: 'GET', route: '/api/programs/:city', status: 200, started: 4998.5 };
    const variants: RequestLogFacts[] = [
      { ...base, key: keyOf('key_CNISl0pYtDL3', 'commercial'), fastPath: true },
      base,
      { ...base, status: 429 },
      { ...base, method: 'HEAD' },
      { ...base, method: 'HEAD', status: 304 },
      { ...base, key: keyOf('key_first000001', 'trial'), fastPath: true },
      { ...base, key: keyOf('key_second00002', 'commercial'), fastPath: true },
      { ...base, route: '/api/sample', fastPath: true },
      { ...base, method: 'PATCH', route: 'unmatched', status: 405 },
      { ...base, started: Number.NaN, status: 500 },
      base,
    ];
    for (const awkward of AWKWARD) variants.push({ requestId: awkward, method: awkward, route: awkward, status: 200, started: 4000, key: keyOf(awkward, awkward), fastPath: true });
    const ours = byteLogger();
    const theirs = byteLogger();
    for (const [index, facts] of variants.entries()) {
      // A new millisecond every other line: the opening remembered as bytes must follow the clock.
      if (index % 2 === 1) mock.timers.tick(1);
      logRequestLine(ours.log, facts);
      theirs.log.info(requestLogFields(facts), 'request');
      const [mine, pinos] = [ours.flush(), theirs.flush()];
      assert.equal(mine.toString('utf8'), pinos.toString('utf8'), `line ${index}`);
      assert.deepEqual(mine, pinos, `line ${index}: the same bytes`);
      assert.equal(mine.includes(PLAINTEXT_KEY), false, 'the key never appears');
    }
  });

  it('keeps lines in the order they were logged, pino\'s own between them', () => {
    const ours = byteLogger();
    const facts: RequestLogFacts = { requestId: 'order-check-0001', method: 'GET', route: '/api/sample', status: 200, started: 5000 };
    logRequestLine(ours.log, facts);
    ours.log.info({ between: true }, 'not a request line');
    logRequestLine(ours.log, { ...facts, requestId: 'order-check-0002' });
    const lines = ours.flush().toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(lines.map((line) => line.requestId ?? line.msg), ['order-check-0001', 'not a request line', 'order-check-0002']);
  });
});
