/**
 * Drives one URL for a fixed time at a fixed connection count with wrk, a C client that costs the
 * machine little CPU. There is no fallback: a client in JavaScript (autocannon, in this process or not)
 * competes with the servers for a 2-core machine and caps both, so its figures measure the client.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { headerLines, missQueriesLua, type MissQueries } from './miss-queries.ts';
import { LATENCY_HOOK_LUA, parseWrkOutput, type LoadResult } from './parse-wrk-output.ts';

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
export function findOnPath(command: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter).filter(Boolean)) {
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

/** The one line (after `hra bench: `) the bench prints, and exits non-zero on, when wrk is not on PATH. */
export const WRK_REQUIRED = 'wrk is required (install it, e.g. apt-get install wrk, and put it on PATH); no other load client is used, since one in JavaScript caps the figures it reports';

/** wrk on PATH (`threads` is its thread count); throws WRK_REQUIRED when it is not there. */
export function pickLoadGenerator(threads: number, path = process.env.PATH ?? ''): LoadGenerator {
  const wrk = findOnPath('wrk', path);
  if (wrk === undefined) throw new Error(WRK_REQUIRED);
  return wrkGenerator(wrk, threads);
}

function wrkGenerator(wrk: string, threads: number): LoadGenerator {
  // The Lua scripts' folder: made at the first run, removed when the bench exits (one was left per run).
  let scripts: string | undefined;
  let written = 0;
  return {
    name: `wrk (${threads} thread${threads === 1 ? '' : 's'})`,
    async run(target, seconds, connections) {
      if (scripts === undefined) {
        const folder = mkdtempSync(join(tmpdir(), 'hra-bench-wrk-'));
        process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
        scripts = folder;
      }
      const script = join(scripts, `script-${written++}.lua`);
      writeFileSync(script, `${target.miss ? missQueriesLua(target.miss.queries, target.path, threads, target.headers) : `${headerLines(target.headers)}\n`}${LATENCY_HOOK_LUA}`);
      const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '5s', '--latency', '-s', script, `${target.origin}${target.path}`];
      if (target.miss) args.push('--', String(target.miss.offset));
      const { stdout } = await promisify(execFile)(wrk, args, { maxBuffer: 1024 * 1024 });
      return parseWrkOutput(stdout);
    },
  };
}
