/**
 * The gateway's one structured logger (pino): JSON lines on stderr, because stdout belongs to the
 * `listening on` line alone once the gateway serves. `X-Api-Key` is redacted wherever it could appear.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { createByteBatchedStream } from './byte-batched-stream.ts';

/** The levels `--log-level` accepts, most verbose first; `silent` writes nothing. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What the gateway logs through: a pino logger, passed to whatever logs (never a hidden global). */
export type GatewayLogger = Logger;

/**
 * Every place a request's headers could be logged. Nothing logs raw headers today; this is the net
 * under that rule. Node lowercases incoming header names; the other spellings cover hand-built objects.
 */
export const REDACTED_PATHS: readonly string[] = [
  // Exact paths only: the gateway never logs headers or keys, and wildcard paths cost a deep walk of
  // every request line (issue 6 profile). These catch the shapes a future careless log call would use.
  ...['headers', 'req.headers', 'request.headers'].flatMap((at) => [`${at}["x-api-key"]`, `${at}["X-Api-Key"]`, `${at}["X-API-Key"]`]),
  'apiKey', 'key',
];

/** How long stderr lines may wait to be written together: a person reading the log sees no lag. */
const STDERR_HOLD = { ms: 20, maxBytes: 64 * 1024 } as const;

/** Options of createGatewayLogger. */
export interface GatewayLoggerOptions {
  level: LogLevel;
  /** Where lines go: stderr unless a test captures them. */
  destination?: DestinationStream;
}

/** Creates the gateway logger. */
export function createGatewayLogger(options: GatewayLoggerOptions): GatewayLogger {
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    },
    options.destination ?? stderrDestination(),
  );
}

/**
 * Lines on stderr, asynchronously: a synchronous write per request blocked the event loop behind a slow
 * stderr pipe (issue 6 profile). sonic-boom writes whatever has gathered whenever its previous write is
 * done; lines reach it as bytes, in batches of up to 20 ms or 64 KiB (byte-batched-stream.ts), which is
 * why it runs in its `buffer` content mode. Past 64 MiB of backlog, lines are dropped rather than
 * stalling requests. At exit the gathered lines are written synchronously.
 */
function stderrDestination(): DestinationStream {
  const sink = pino.destination({ fd: 2, sync: false, maxLength: 64 * 1024 * 1024, contentMode: 'buffer' });
  const stream = createByteBatchedStream(sink as unknown as Parameters<typeof createByteBatchedStream>[0], STDERR_HOLD);
  // pino's own exit hook flushes sonic-boom only; this one first hands it the lines still held.
  process.once('exit', () => stream.flushSync());
  return stream;
}
