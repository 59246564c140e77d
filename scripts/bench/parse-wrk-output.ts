/** Reads the text report of `wrk --latency` into numbers. */

/** One load run's outcome, whichever tool produced it. */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses outside 2xx and 3xx. */
  non2xx: number;
  /** Connect, read, write errors and timeouts. */
  errors: number;
  /** Bytes read per response, headers included. */
  bytesPerResponse: number;
}

const TIME_UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const SIZE_UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

/** Parses wrk's report; throws naming the missing line when it is not one (wrk failed to run). */
export function parseWrkOutput(text: string): LoadResult {
  const need = (pattern: RegExp, what: string): RegExpMatchArray => {
    const match = text.match(pattern);
    if (!match) throw new Error(`wrk output has no ${what} line: ${text.trim().split('\n').slice(-3).join(' | ')}`);
    return match;
  };
  const rps = Number(need(/^Requests\/sec:\s+([\d.]+)/m, 'Requests/sec')[1]);
  const p50 = need(/^\s+50%\s+([\d.]+)(us|ms|s|m|h)\s*$/m, '50% latency');
  const p99 = need(/^\s+99%\s+([\d.]+)(us|ms|s|m|h)\s*$/m, '99% latency');
  const total = need(/^\s+(\d+) requests in [\d.]+\w+, ([\d.]+)(B|KB|MB|GB|TB) read/m, 'requests in');
  const requests = Number(total[1]);
  const bytes = Number(total[2]) * (SIZE_UNITS[total[3] as string] ?? 1);
  const non2xx = Number(text.match(/^\s+Non-2xx or 3xx responses:\s+(\d+)/m)?.[1] ?? 0);
  const socket = text.match(/^\s+Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/m);
  const errors = socket ? socket.slice(1, 5).reduce((sum, count) => sum + Number(count), 0) : 0;
  return {
    requestsPerSecond: rps,
    p50Ms: Number(p50[1]) * (TIME_UNITS[p50[2] as string] ?? 1),
    p99Ms: Number(p99[1]) * (TIME_UNITS[p99[2] as string] ?? 1),
    requests,
    non2xx,
    errors,
    bytesPerResponse: requests === 0 ? 0 : bytes / requests,
  };
}
