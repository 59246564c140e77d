/** Reads the text report of `wrk --latency`, and the line of LATENCY_HOOK_LUA, into numbers. */

/** One load run's outcome, whichever tool produced it. */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** NaN when the run's script printed no LATENCY_HOOK_LUA line. */
  p999Ms: number;
  requests: number;
  /** Responses outside 2xx and 3xx. */
  non2xx: number;
  /** Connect, read, write errors and timeouts. */
  errors: number;
  /** Bytes read per response, headers included. */
  bytesPerResponse: number;
}

/**
 * A wrk `done()` hook printing p50, p99 and p99.9 in whole µs: `--latency` prints no p99.9, and its own
 * percentiles are rounded to two decimals of their unit. Every script the bench hands wrk ends with it.
 */
export const LATENCY_HOOK_LUA = `
function done(summary, latency, requests)
  io.write(string.format("hra-latency-us p50=%d p99=%d p999=%d\\n", latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
end
`;

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
  const hook = text.match(/^hra-latency-us p50=(\d+) p99=(\d+) p999=(\d+)$/m);
  const total = need(/^\s+(\d+) requests in [\d.]+\w+, ([\d.]+)(B|KB|MB|GB|TB) read/m, 'requests in');
  const requests = Number(total[1]);
  const bytes = Number(total[2]) * (SIZE_UNITS[total[3] as string] ?? 1);
  const non2xx = Number(text.match(/^\s+Non-2xx or 3xx responses:\s+(\d+)/m)?.[1] ?? 0);
  const socket = text.match(/^\s+Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/m);
  const errors = socket ? socket.slice(1, 5).reduce((sum, count) => sum + Number(count), 0) : 0;
  return {
    requestsPerSecond: rps,
    p50Ms: hook ? Number(hook[1]) / 1000 : Number(p50[1]) * (TIME_UNITS[p50[2] as string] ?? 1),
    p99Ms: hook ? Number(hook[2]) / 1000 : Number(p99[1]) * (TIME_UNITS[p99[2] as string] ?? 1),
    p999Ms: hook ? Number(hook[3]) / 1000 : Number.NaN,
    requests,
    non2xx,
    errors,
    bytesPerResponse: requests === 0 ? 0 : bytes / requests,
  };
}
