/** The hand-written request line (issue 15) is byte for byte the line pino writes for the same fields. */
import * as assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { pino } from 'pino';
import type { LicensedKey } from '../../../gateway/keys/key-lookup.ts';
import { createByteBatchedStream, type ByteSink } from '../../../gateway/observability/byte-batched-stream.ts';
import { createGatewayLogger, type GatewayLogger, type LogLevel } from '../../../gateway/observability/gateway-logger.ts';
import { logRequestLine, requestLogFields, type RequestLogFacts } from '../../../gateway/observability/request-log-line.ts';

/** A logger whose destination keeps each written string as it was given (no encoding in between). */
function recordingLogger(level: LogLevel = 'info'): { log: GatewayLogger; written: string[] } {
  const written: string[] = [];
  return { log: createGatewayLogger({ level, destination: { write: (line: string) => written.push(line) } }), written };
}

const PLAINTEXT_KEY = 'hra_c_NC9smSt7wkr3IvumaQMcSXAIBrXiI4TWvmIUZg';

function keyOf(id: string, tier: string): LicensedKey {
  // A minted key never carries its plaintext; this one does, to show the line cannot pick it up.
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
  `long with a control ${'y'.repeat(120)}\r`,
  '',
];

describe('logRequestLine', () => {
  beforeEach(() => {
    // pino's time and the duration both read clocks: hold them still so two lines can be compared.
    mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 10, 24, 14, 30, 0, 123) });
    mock.method(performance, 'now', () => 5000.123456);
  });
  afterEach(() => {
    mock.timers.reset();
    mock.restoreAll();
  });

  const cases: Array<[string, RequestLogFacts]> = [
    ['a fast-path hit', { requestId: 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d', method: 'GET', route: '/api/programs/:city', status: 200, started: 4998.5, key: keyOf('key_CNISl0pYtDL3', 'commercial'), fastPath: true }],
    ['a Koa line without a key', { requestId: 'log-test-0001', method: 'HEAD', route: 'unmatched', status: 404, started: 4990 }],
    ['a 429 with a key', { requestId: 'r-429-000001', method: 'GET', route: '/api/programs/:city/:programId', status: 429, started: 5000.123456, key: keyOf('key_x', 'trial') }],
    ['a duration that is not finite', { requestId: 'r-nan-000001', method: 'GET', route: '/api/sample', status: 500, started: Number.NaN }],
  ];
  for (const awkward of AWKWARD) {
    cases.push([`awkward strings ${JSON.stringify(awkward).slice(0, 40)}`, { requestId: awkward, method: awkward, route: awkward, status: 200, started: 4000, key: keyOf(awkward, awkward), fastPath: true }]);
  }

  for (const [name, facts] of cases) {
    it(`writes what pino writes for the same fields: ${name}`, () => {
      const ours = recordingLogger();
      const theirs = recordingLogger();
      logRequestLine(ours.log, facts);
      theirs.log.info(requestLogFields(facts), 'request');
      assert.equal(ours.written.length, 1, 'one line per call');
      assert.equal(ours.written[0], theirs.written[0]);
      assert.equal(ours.written[0]?.includes(PLAINTEXT_KEY), false, 'the key never appears');
      assert.ok(ours.written[0]?.endsWith('\n'));
    });
  }

  it('writes what pino writes when one route is logged again with another method, status, key or path', () => {
    // The constant parts of a line are remembered by route, method, status and key: each must key its own text.
    const base: RequestLogFacts = { requestId: 'memo-check-0001', method: 'GET', route: '/api/programs/:city', status: 200, started: 4999 };
    const variants: RequestLogFacts[] = [
      base,
      { ...base, status: 429 },
      { ...base, method: 'HEAD' },
      { ...base, method: 'HEAD', status: 429 },
      { ...base, key: keyOf('key_first000001', 'trial'), fastPath: true },
      { ...base, key: keyOf('key_second00002', 'commercial') },
      { ...base, route: '/api/sample', fastPath: true },
      { ...base, method: 'PATCH' },
      base,
    ];
    for (const facts of variants) {
      const ours = recordingLogger();
      const theirs = recordingLogger();
      logRequestLine(ours.log, facts);
      theirs.log.info(requestLogFields(facts), 'request');
      assert.equal(ours.written[0], theirs.written[0]);
    }
  });

  it('has the keys of the pino line, in its order, and parses as JSON with the given values', () => {
    const { log, written } = recordingLogger();
    const facts = cases[0]?.[1] as RequestLogFacts;
    logRequestLine(log, facts);
    const line = JSON.parse(written[0] ?? '') as Record<string, unknown>;
    assert.deepEqual(Object.keys(line), ['level', 'time', 'pid', 'requestId', 'method', 'route', 'status', 'durationMs', 'keyId', 'tier', 'fastPath', 'msg']);
    assert.deepEqual(line, {
      level: 30, time: '2026-11-24T14:30:00.123Z', pid: process.pid, requestId: facts.requestId, method: 'GET', route: '/api/programs/:city',
      status: 200, durationMs: 1.623, keyId: 'key_CNISl0pYtDL3', tier: 'commercial', fastPath: true, msg: 'request',
    });
  });

  it('writes nothing below its level', () => {
    for (const level of ['warn', 'error', 'silent'] as const) {
      const { log, written } = recordingLogger(level);
      logRequestLine(log, cases[0]?.[1] as RequestLogFacts);
      assert.deepEqual(written, []);
    }
  });

  it('keeps a child logger\'s bindings, after pid, as pino does', () => {
    const ours = recordingLogger();
    const theirs = recordingLogger();
    const facts = cases[1]?.[1] as RequestLogFacts;
    logRequestLine(ours.log.child({ worker: 'w"1' }), facts);
    theirs.log.child({ worker: 'w"1' }).info(requestLogFields(facts), 'request');
    assert.equal(ours.written[0], theirs.written[0]);
  });

  it('leaves a logger that shapes lines otherwise (here a mixin) to pino', () => {
    const written: string[] = [];
    const log = pino({ level: 'info', base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, mixin: () => ({ extra: 1 }) }, { write: (line: string) => written.push(line) });
    logRequestLine(log, cases[1]?.[1] as RequestLogFacts);
    const line = JSON.parse(written[0] ?? '') as Record<string, unknown>;
    assert.equal(line.extra, 1);
    assert.equal(line.msg, 'request');
    assert.equal(line.route, 'unmatched');
  });
});

/** A gateway logger over a byte batch (byte-batched-stream.ts) whose chunks are kept; `flush` returns the bytes since the last call. */
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

// The gateway's own destination takes the line's bytes in place: they must be pino's bytes for the same
// fields, across the pieces remembered as bytes (opening per millisecond, middle per method, route and
// status, fields per key) and every character the request id's one-pass quoting meets.
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
    // Every ASCII character inside an id (the one-pass quoting takes 32-126 but `"` and `\\`), then the awkward strings.
    for (let code = 0; code < 128; code++) variants.push({ ...base, requestId: `id-${String.fromCharCode(code)}-0001` });
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

  it('writes pino\'s ISO time at any clock: each millisecond digit, across seconds, days and years, before 1970 and past 9999', () => {
    // Date.now itself, not mock.timers (which refuses a time before 1970); pino reads the time through it.
    mock.timers.reset();
    let clock = 0;
    mock.method(Date, 'now', () => clock);
    const ours = byteLogger();
    const theirs = byteLogger();
    const facts: RequestLogFacts = { requestId: 'clock-walk-0001', method: 'GET', route: '/api/sample', status: 200, started: 4998.5, fastPath: true };
    const starts = [
      Date.UTC(2026, 11, 31, 23, 59, 58, 990),
      Date.UTC(2026, 5, 1, 12, 0, 0, 0),
      Date.UTC(1969, 11, 31, 23, 59, 59, 995),
      Date.UTC(9999, 11, 31, 23, 59, 59, 998),
      Date.UTC(-1, 0, 1, 0, 0, 0, 5),
      8.64e15 - 1500,
    ];
    let lines = 0;
    for (const start of starts) {
      clock = start;
      // 1,500 lines a millisecond apart: every digit in every place, and a second boundary or two.
      for (let step = 0; step < 1500; step++) {
        logRequestLine(ours.log, facts);
        theirs.log.info(requestLogFields(facts), 'request');
        lines++;
        if (step % 3 !== 0) clock += 1;
      }
    }
    const [mine, pinos] = [ours.flush().toString('utf8').split('\n'), theirs.flush().toString('utf8').split('\n')];
    assert.equal(mine.length, lines + 1);
    for (const [index, line] of mine.entries()) assert.equal(line, pinos[index], `line ${index}`);
    assert.ok(mine.some((line) => line.includes('"time":"+010000-01-01T00:00:00.')), 'a year past 9999 was written');
    assert.ok(mine.some((line) => line.includes('"time":"1969-12-31T23:59:59.99')), 'a time before 1970 was written');
  });

  it('writes a logger\'s own time function as pino does, as it changes', () => {
    let clock = 0;
    const chunks: Buffer[] = [];
    const stream = createByteBatchedStream({ write: (chunk) => chunks.push(chunk), flushSync: () => undefined }, { ms: 20, maxBytes: 64 * 1024 });
    const time = () => `,"time":${clock}`;
    const log = pino({ level: 'info', base: { pid: process.pid }, timestamp: time }, stream);
    const facts: RequestLogFacts = { requestId: 'own-time-0001', method: 'GET', route: '/api/sample', status: 200, started: 4998.5 };
    for (let line = 0; line < 6; line++) {
      clock = line;
      logRequestLine(log, facts);
      log.info(requestLogFields(facts), 'request');
    }
    stream.flushSync();
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\n');
    // Each pair, ours then pino's, at the same time; the time moves between pairs.
    for (let pair = 0; pair < lines.length; pair += 2) assert.equal(lines[pair], lines[pair + 1], `pair ${pair / 2}`);
    assert.deepEqual(lines.map((line) => (JSON.parse(line) as { time: number }).time), [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
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
