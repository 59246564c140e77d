/** A gateway logger whose JSON lines a test can read back. */
import { Writable } from 'node:stream';
import { createGatewayLogger, type GatewayLogger, type LogLevel } from '../../../gateway/observability/gateway-logger.ts';

/** A captured log line: pino's fields and ours. */
export type LogLine = Record<string, unknown> & { level: number; msg: string };

/** The logger and what it has written so far. */
export interface CapturedLog {
  log: GatewayLogger;
  /** Every line written, raw. */
  text(): string;
  lines(): LogLine[];
  /** The per-request lines. */
  requests(): LogLine[];
}

/** Creates a logger at `level` writing into memory. */
export function captureLogger(level: LogLevel = 'info'): CapturedLog {
  let written = '';
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      written += String(chunk);
      callback();
    },
  });
  const lines = () => written.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as LogLine);
  return {
    log: createGatewayLogger({ level, destination }),
    text: () => written,
    lines,
    requests: () => lines().filter((line) => line.msg === 'request'),
  };
}
