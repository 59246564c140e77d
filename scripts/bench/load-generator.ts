/**
 * Drives one URL for a fixed time at a fixed connection count: with wrk when it is on PATH (a C client
 * that costs the server little CPU), else with autocannon in this process (a JS client: on a 2-core
 * machine it competes with the server, so its figures are lower and say so in the report).
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { headerLines, missQueriesLua, type MissQueries } from './miss-queries.ts';
import { parseWrkOutput, type LoadResult } from './parse-wrk-output.ts';

/** What to drive. */
export interface LoadTarget {
  /** Origin, e.g. `http://127.0.0.1:4000`. */
  origin: string;
  /** Path with its fixed query, or the path the miss queries are appended to. */
  path: string;
  headers: Readonly<Record<string, string>>;
  /** Every request gets a distinct filter query: request n of this run is `offset + n`. */
  miss?: { queries: MissQueries; offset: number };
}

/** A load tool. */
export interface LoadGenerator {
  readonly name: string;
  run(target: LoadTarget, seconds: number, connections: number): Promise<LoadResult>;
}

/** Finds an executable on PATH, or undefined. */
export function findOnPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** wrk when installed, else autocannon. `threads` is wrk's thread count. */
export function pickLoadGenerator(threads: number): LoadGenerator {
  const wrk = findOnPath('wrk');
  return wrk === undefined ? autocannonGenerator() : wrkGenerator(wrk, threads);
}

function wrkGenerator(wrk: string, threads: number): LoadGenerator {
  const scripts = mkdtempSync(join(tmpdir(), 'hra-bench-wrk-'));
  let written = 0;
  return {
    name: `wrk (${threads} thread${threads === 1 ? '' : 's'})`,
    async run(target, seconds, connections) {
      const script = join(scripts, `script-${written++}.lua`);
      writeFileSync(script, target.miss ? missQueriesLua(target.miss.queries, target.path, threads, target.headers) : `${headerLines(target.headers)}\n`);
      const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '5s', '--latency', '-s', script, `${target.origin}${target.path}`];
      if (target.miss) args.push('--', String(target.miss.offset));
      const { stdout } = await promisify(execFile)(wrk, args, { maxBuffer: 1024 * 1024 });
      return parseWrkOutput(stdout);
    },
  };
}

/** The slice of autocannon's API used here (the package ships no types). */
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  requests?: Array<{ setupRequest: (request: { path: string }) => { path: string } }>;
}) => Promise<{
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  throughput: { total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}>;

function autocannonGenerator(): LoadGenerator {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  return {
    name: 'autocannon (in process)',
    async run(target, seconds, connections) {
      let n = 0;
      const miss = target.miss;
      const result = await autocannon({
        url: `${target.origin}${target.path}`,
        connections,
        duration: seconds,
        headers: { ...target.headers },
        ...(miss ? { requests: [{ setupRequest: (request) => ({ ...request, path: `${target.path}?${miss.queries.query(miss.offset + n++)}` }) }] } : {}),
      });
      const requests = result.requests.total;
      return {
        requestsPerSecond: result.requests.average,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        requests,
        non2xx: result.non2xx,
        errors: result.errors,
        bytesPerResponse: requests === 0 ? 0 : result.throughput.total / requests,
      };
    },
  };
}
