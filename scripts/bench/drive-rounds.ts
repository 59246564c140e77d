/** A load run with the server's CPU time per request, and its user and kernel shares (NaN when unknown). */
export type MeasuredRun = LoadResult & { cpuUsPerRequest: number; userUsPerRequest: number; systemUsPerRequest: number };

/** Runs the measured rounds of one route, alternating servers (A B A B), and folds them into figures. */
import { cpuSplitMillis, sampleResident } from './bench-process.ts';
import type { LoadGenerator, LoadTarget } from './load-generator.ts';
import type { MissQueries } from './miss-queries.ts';
import type { LoadResult } from './parse-wrk-output.ts';
import { isCeiling, type RouteFigures, type RouteId, type ServerMode } from './render-report.ts';
import { median, spreadOf } from './round-statistics.ts';

/** A server under test in a round. */
export interface RoundServer {
  mode: ServerMode;
  origin: string;
  /** Its CPU time is read around each run; gateways' RSS is sampled too. */
  pid?: number;
  /** This server's own key, sent instead of the route's `X-Api-Key` (two trees have two key stores). */
  apiKey?: string;
}

/** A route to drive. */
export interface BenchRoute {
  id: RouteId;
  path: string;
  headers: Readonly<Record<string, string>>;
  /** Vary the filter query per request (the cache-miss route). */
  miss?: MissQueries;
}

/** Shared state of a run: the next unused miss-query number, the RSS peaks per pid. */
export interface RoundState {
  missOffset: number;
  peakRss: Map<number, number>;
}

/** Drives `route` on each server in turn for `rounds` rounds of `seconds`; returns one figure set per server. */
export async function driveRounds(
  load: LoadGenerator,
  route: BenchRoute,
  servers: readonly RoundServer[],
  options: { rounds: number; seconds: number; connections: number },
  state: RoundState,
  progress: (line: string) => void,
): Promise<RouteFigures[]> {
  const results = new Map<ServerMode, MeasuredRun[]>(servers.map((server) => [server.mode, []]));
  for (const { round, server } of interleavedRounds(servers, options.rounds)) {
    const result = await driveOnce(load, route, server, options.seconds, options.connections, state);
    results.get(server.mode)?.push(result);
    progress(`bench: ${route.id} ${server.mode} round ${round}/${options.rounds}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99Ms.toFixed(2)} ms, ${result.cpuUsPerRequest.toFixed(0)} µs CPU/req${result.non2xx + result.errors > 0 ? `, ${result.non2xx} non-2xx, ${result.errors} errors` : ''}`);
  }
  return servers.map((server) => summarize(route, server.mode, results.get(server.mode) ?? []));
}

/**
 * The order of a route's runs: every server once per round, in the order given (A, B, ceiling, A, B,
 * ceiling, ...), so a drift of the machine's load over the run falls on every server alike.
 */
export function interleavedRounds<Server>(servers: readonly Server[], rounds: number): Array<{ round: number; server: Server }> {
  const order: Array<{ round: number; server: Server }> = [];
  for (let round = 1; round <= rounds; round++) for (const server of servers) order.push({ round, server });
  return order;
}

/** One load run; samples the server's RSS meanwhile and advances the miss-query offset past it. */
export async function driveOnce(load: LoadGenerator, route: BenchRoute, server: RoundServer, seconds: number, connections: number, state: RoundState): Promise<MeasuredRun> {
  const target: LoadTarget = {
    origin: server.origin,
    path: route.path,
    headers: server.apiKey !== undefined && route.headers['X-Api-Key'] !== undefined ? { ...route.headers, 'X-Api-Key': server.apiKey } : route.headers,
    ...(route.miss ? { miss: { queries: route.miss, offset: state.missOffset } } : {}),
  };
  const sampler = server.pid === undefined || isCeiling(server.mode) ? undefined : sampleResident(server.pid);
  const cpuBefore = server.pid === undefined ? undefined : cpuSplitMillis(server.pid);
  const run = await load.run(target, seconds, connections);
  const cpuAfter = server.pid === undefined ? undefined : cpuSplitMillis(server.pid);
  // CPU per request survives a busy machine far better than requests/s: other work steals time, not cycles per request.
  const perRequest = (pick: (split: { userMs: number; systemMs: number }) => number) =>
    cpuBefore === undefined || cpuAfter === undefined || run.requests === 0 ? Number.NaN : ((pick(cpuAfter) - pick(cpuBefore)) * 1000) / run.requests;
  const result: MeasuredRun = {
    ...run,
    cpuUsPerRequest: perRequest((split) => split.userMs + split.systemMs),
    userUsPerRequest: perRequest((split) => split.userMs),
    systemUsPerRequest: perRequest((split) => split.systemMs),
  };
  const peak = sampler?.stop();
  if (server.pid !== undefined && peak !== undefined) state.peakRss.set(server.pid, Math.max(state.peakRss.get(server.pid) ?? 0, peak));
  // Requests still in flight when the tool stopped were numbered too, and wrk threads number theirs
  // interleaved and may finish unevenly: skip well past them. The ceilings ignore the query entirely.
  if (route.miss && !isCeiling(server.mode)) state.missOffset += result.requests * 2 + connections * 2;
  return result;
}

function summarize(route: BenchRoute, mode: ServerMode, results: readonly MeasuredRun[]): RouteFigures {
  return {
    route: route.id,
    mode,
    path: route.path,
    rps: spreadOf(results.map((result) => result.requestsPerSecond)),
    p50Ms: median(results.map((result) => result.p50Ms)),
    p99Ms: median(results.map((result) => result.p99Ms)),
    p99WorstMs: Math.max(...results.map((result) => result.p99Ms)),
    p99Rounds: results.map((result) => result.p99Ms),
    p999Ms: median(results.map((result) => result.p999Ms)),
    bytesPerResponse: median(results.map((result) => result.bytesPerResponse)),
    cpuUsPerRequest: spreadOf(results.map((result) => result.cpuUsPerRequest).filter((value) => !Number.isNaN(value))),
    cpuRounds: results.map((result) => result.cpuUsPerRequest),
    userUsPerRequest: spreadOf(results.map((result) => result.userUsPerRequest).filter((value) => !Number.isNaN(value))),
    systemUsPerRequest: spreadOf(results.map((result) => result.systemUsPerRequest).filter((value) => !Number.isNaN(value))),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
  };
}
