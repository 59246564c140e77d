/** Renders a bench run as Markdown: the same text goes to stdout and into a section of BENCHMARKS.md. */
import { atLeastRatio, atMost, buildSecondsTarget, gatewayRssTargetMb, withinBelow, type Verdict } from './bench-targets.ts';
import type { BuildFigures } from './measure-build.ts';
import { spreadOf, type Spread } from './round-statistics.ts';
import type { HotFunction } from './summarize-cpu-profile.ts';
import { plural } from '../plural.ts';

/** Which server answered: a gateway, or bare node:http with two headers or with the gateway's own head. */
export type ServerMode = GatewayMode | CeilingMode | ComparedMode;
/** The two trees of `--compare`: A is the ref given, B this working tree; each also with `--redis`. */
export type ComparedMode = 'gateway A' | 'gateway B' | 'gateway A --redis' | 'gateway B --redis';
export type GatewayMode = 'gateway' | 'gateway --redis' | 'gateway --redis --keys postgres';
export type CeilingMode = 'ceiling' | 'ceiling, same headers';

/** Whether `mode` is one of the bare node:http ceilings. */
export function isCeiling(mode: ServerMode): mode is CeilingMode {
  return mode === 'ceiling' || mode === 'ceiling, same headers';
}

/** The routes of issue 6, in table order. */
export const BASE_ROUTE_IDS = ['unfiltered', 'filtered-miss', 'filtered-hit', 'detail', 'sample', 'changes', 'health'] as const;
export type BaseRouteId = (typeof BASE_ROUTE_IDS)[number];

/** The codings a compressed variant asks for, each alone, so the ceiling can send the very bytes of each. */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/** The routes driven again asking for each coding (issue 35, goal 4): the collection, a detail and the sample. */
export const COMPRESSED_ROUTE_IDS = ['unfiltered', 'detail', 'sample'] as const satisfies readonly BaseRouteId[];
export type CompressedRouteId = (typeof COMPRESSED_ROUTE_IDS)[number];

/** A route as driven: as it is, or asking for one coding with `Accept-Encoding` (issue 24). */
export type RouteId = BaseRouteId | `${CompressedRouteId} (${Coding})`;

/** The id of `route` asked with `Accept-Encoding: <coding>`. */
export function compressedRouteId(route: CompressedRouteId, coding: Coding): RouteId {
  return `${route} (${coding})`;
}

/** Route ids in table order, each followed by its compressed variants when it has them. */
export const ROUTE_IDS: readonly RouteId[] = BASE_ROUTE_IDS.flatMap((id): RouteId[] =>
  (COMPRESSED_ROUTE_IDS as readonly BaseRouteId[]).includes(id) ? [id, ...CODINGS.map((coding) => compressedRouteId(id as CompressedRouteId, coding))] : [id],
);

/** One route on one server, summarized over its rounds. */
export interface RouteFigures {
  route: RouteId;
  mode: ServerMode;
  path: string;
  rps: Spread;
  /** Medians over rounds. */
  p50Ms: number;
  p99Ms: number;
  /** Worst round's p99. */
  p99WorstMs: number;
  /** Each round's p99 in the order driven, to pair with a ceiling's rounds; absent in figures made before issue 43 goal 2. */
  p99Rounds?: readonly number[];
  /** Median over rounds of p99.9 (NaN when the load tool did not report it). */
  p999Ms: number;
  bytesPerResponse: number;
  /** Server CPU time (user + system) per request: median and min–max over rounds; NaN when unknown. */
  cpuUsPerRequest: Spread;
  /** The same, round by round in the order driven (NaN for a round not measured), to pair with a ceiling's rounds. */
  cpuRounds: readonly number[];
  /** Its user and kernel (system) shares apart, median and min–max over rounds; absent in figures made before issue 43. */
  userUsPerRequest?: Spread;
  systemUsPerRequest?: Spread;
  /** Non-2xx/3xx responses and socket errors over every round; both must be 0 for a clean run. */
  non2xx: number;
  errors: number;
}

/** A gateway process's memory and start-up. */
export interface GatewayFigures {
  mode: GatewayMode;
  restRssBytes: number | undefined;
  loadRssBytes: number | undefined;
  listeningMs: number;
  firstResponseMs: number;
}

/** A profile's summary with the route it was taken on. */
export interface ProfileSummary {
  route: string;
  seconds: number;
  top: HotFunction[];
}

/** How a run was made: the heading and first lines of its report, a comparison's too. */
export interface RunSetup {
  command: string;
  date: string;
  machine: string;
  loadTool: string;
  connections: number;
  rounds: number;
  roundSeconds: number;
  scale: number;
}

/** Everything a run measured. */
export interface BenchReport extends RunSetup {
  build: BuildFigures;
  routes: RouteFigures[];
  gateways: GatewayFigures[];
  notes: string[];
  profile?: ProfileSummary;
  elapsedSeconds: number;
}

/** The Markdown section for one run (no surrounding markers). */
export function renderReport(report: BenchReport): string {
  const lines: string[] = [];
  lines.push(`### \`${report.command}\` — ${report.date}`, '');
  lines.push(`- machine: ${report.machine}`);
  lines.push(`- load: ${report.loadTool}, ${report.connections} connections, ${report.rounds} rounds of ${report.roundSeconds} s per route and server, alternating gateway and ceiling after a warm-up`);
  lines.push(`- corpus: \`hra synth --seed 1 --scale ${report.scale}\`, ${report.build.rows.toLocaleString('en-US')} rows; revision \`${report.build.revision.slice(0, 16)}…\``);
  lines.push(`- run took ${report.elapsedSeconds.toFixed(0)} s`, '');
  lines.push(...renderRouteTable(report), '');
  const ratios = renderCeilingRatios(report);
  if (ratios.length > 0) lines.push(...ratios, '');
  const split = renderCpuSplit(report.routes);
  if (split.length > 0) lines.push(...split, '');
  const tails = renderTailSpread(report.routes);
  if (tails.length > 0) lines.push(...tails, '');
  lines.push(...renderFigureTable(report), '');
  if (report.notes.length > 0) lines.push(...report.notes.map((note) => `- ${note}`), '');
  if (report.profile) lines.push(...renderProfile(report.profile), '');
  return lines.join('\n');
}

/** Per route and server: requests/s median and spread, latency, ratio to the ceiling, the target. */
export function renderRouteTable(report: Pick<BenchReport, 'routes'>): string[] {
  const rows = ['| route | server | req/s median | min–max | p50 ms | p99 ms (worst) | p99.9 ms | vs ceiling | CPU µs/req | min–max | vs ceiling by CPU | bytes/resp | target |', '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|'];
  for (const route of ROUTE_IDS) {
    const ceiling = find(report.routes, route, 'ceiling');
    for (const mode of ['gateway', 'gateway --redis', 'gateway --redis --keys postgres', 'ceiling', 'ceiling, same headers'] as const) {
      const figures = find(report.routes, route, mode);
      if (!figures) continue;
      const ratio = isCeiling(mode) || !ceiling ? undefined : figures.rps.median / ceiling.rps.median;
      const verdict = routeVerdict(report.routes, figures, ratio);
      const cpuRatio = isCeiling(mode) || !ceiling ? undefined : ceiling.cpuUsPerRequest.median / figures.cpuUsPerRequest.median;
      const dirty = figures.non2xx + figures.errors > 0 ? ` ⚠ ${figures.non2xx} non-2xx, ${figures.errors} errors` : '';
      rows.push(
        `| ${route} | ${mode} | ${whole(figures.rps.median)} | ${whole(figures.rps.min)}–${whole(figures.rps.max)} | ${fixed(figures.p50Ms, 2)} | ${fixed(figures.p99Ms, 2)} (${fixed(figures.p99WorstMs, 2)}) | ${fixed(figures.p999Ms, 2)} | ${ratio === undefined ? '—' : `${(ratio * 100).toFixed(0)}%`} | ${whole(figures.cpuUsPerRequest.median)} | ${whole(figures.cpuUsPerRequest.min)}–${whole(figures.cpuUsPerRequest.max)} | ${cpuRatio === undefined || !Number.isFinite(cpuRatio) ? '—' : `${(cpuRatio * 100).toFixed(0)}%`} | ${whole(figures.bytesPerResponse)} | ${verdict ? verdict.map((item) => `${item.met ? '✅' : '❌'} ${item.text}`).join('; ') : '—'}${dirty} |`,
      );
    }
  }
  return rows;
}

function routeVerdict(all: readonly RouteFigures[], figures: RouteFigures, ratio: number | undefined): Verdict[] | undefined {
  if (isCeiling(figures.mode)) return undefined;
  if (figures.route === 'filtered-hit') {
    const unfiltered = find(all, 'unfiltered', figures.mode);
    return unfiltered ? [withinBelow(figures.rps.median, unfiltered.rps.median, 0.1, 'unfiltered')] : undefined;
  }
  if (ratio === undefined) return undefined;
  if (figures.route === 'unfiltered' && figures.mode === 'gateway') return [atLeastRatio(ratio, 0.7), atMost(figures.p99Ms, 5, 'ms p99', 2)];
  if (figures.route === 'unfiltered') return [atLeastRatio(ratio, 0.45)];
  if (figures.route === 'filtered-miss' && figures.mode === 'gateway') return [atLeastRatio(ratio, 0.25)];
  return undefined;
}

/**
 * Issue 15's ratios, side by side: each gateway row against the two-header ceiling and against the
 * ceiling that sends the gateway's own response head, with the issue's targets on the unfiltered route;
 * and issue 35's tail: the gateway's p99 over the same-headers ceiling's, measured in the same rounds.
 * Empty when the run had no same-headers ceiling.
 */
export function renderCeilingRatios(report: Pick<BenchReport, 'routes'>): string[] {
  if (!report.routes.some((figures) => figures.mode === 'ceiling, same headers')) return [];
  const rows = ['| route | server | vs ceiling (2 headers) | vs ceiling (same headers) | by CPU, 2 headers | by CPU, same headers | by CPU, same headers, worst round | p99 / same-headers p99 | target (issues 15, 35) |', '|---|---|---:|---:|---:|---:|---:|---:|---|'];
  const percent = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '—' : `${(value * 100).toFixed(0)}%`);
  for (const route of ROUTE_IDS) {
    const two = find(report.routes, route, 'ceiling');
    const same = find(report.routes, route, 'ceiling, same headers');
    for (const figures of report.routes.filter((candidate) => candidate.route === route && !isCeiling(candidate.mode))) {
      const vsTwo = two && figures.rps.median / two.rps.median;
      const vsSame = same && figures.rps.median / same.rps.median;
      const tail = same && figures.p99Ms / same.p99Ms;
      const worst = same && worstRoundShare(figures, same);
      const verdicts: Verdict[] = [];
      if (route === 'unfiltered' && figures.mode === 'gateway') {
        if (vsSame !== undefined) verdicts.push(atLeastRatio(vsSame, 0.8, 'of same-headers ceiling'));
        if (vsTwo !== undefined) verdicts.push(atLeastRatio(vsTwo, 0.6, 'of 2-header ceiling'));
      } else if (route === 'unfiltered' && vsTwo !== undefined) {
        verdicts.push(atLeastRatio(vsTwo, 0.5, 'of 2-header ceiling'));
      }
      if (worst !== undefined && (route === 'unfiltered' || route.startsWith('unfiltered (')) && figures.mode === 'gateway') verdicts.push(atLeastRatio(worst, 0.8, 'by CPU in every round'));
      if (tail !== undefined && isTailTargetRoute(route) && (figures.mode === 'gateway' || figures.mode === 'gateway B')) verdicts.push(atMost(tail, 1.5, '× p99', 2));
      rows.push(
        `| ${route} | ${figures.mode} | ${percent(vsTwo)} | ${percent(vsSame)} | ${percent(two && two.cpuUsPerRequest.median / figures.cpuUsPerRequest.median)} | ${percent(same && same.cpuUsPerRequest.median / figures.cpuUsPerRequest.median)} | ${percent(worst)} | ${tail === undefined || !Number.isFinite(tail) ? '—' : `${tail.toFixed(2)}×`} | ${verdicts.length === 0 ? '—' : verdicts.map((item) => `${item.met ? '✅' : '❌'} ${item.text}`).join('; ')} |`,
      );
    }
  }
  return rows;
}

/**
 * Server CPU per request split into user and kernel time (from /proc), per route and server, with each
 * server's share of the ceiling's in each (the same-headers ceiling when measured, else the two-header
 * one): issue 43 reads whether a gap lies in the process's own work or in the kernel's. Empty when no
 * figure carries the split.
 */
export function renderCpuSplit(routes: readonly RouteFigures[]): string[] {
  if (!routes.some((figures) => figures.userUsPerRequest !== undefined && figures.systemUsPerRequest !== undefined)) return [];
  const against: ServerMode = routes.some((figures) => figures.mode === 'ceiling, same headers') ? 'ceiling, same headers' : 'ceiling';
  const rows = [`| route | server | user µs/req | min–max | kernel µs/req | min–max | user, ${against} / server | kernel, ${against} / server |`, '|---|---|---:|---:|---:|---:|---:|---:|'];
  const share = (ceiling: Spread | undefined, own: Spread | undefined) => {
    const value = ceiling === undefined || own === undefined ? Number.NaN : ceiling.median / own.median;
    return Number.isFinite(value) ? `${(value * 100).toFixed(0)}%` : '—';
  };
  const cell = (spread: Spread | undefined) => (spread === undefined ? '— | —' : `${fixed(spread.median, 1)} | ${fixed(spread.min, 1)}–${fixed(spread.max, 1)}`);
  const order: RouteId[] = [];
  for (const figures of routes) if (!order.includes(figures.route)) order.push(figures.route);
  for (const route of order) {
    const ceiling = routes.find((figures) => figures.route === route && figures.mode === against);
    for (const figures of routes.filter((candidate) => candidate.route === route)) {
      const own = figures === ceiling;
      rows.push(`| ${route} | ${figures.mode} | ${cell(figures.userUsPerRequest)} | ${cell(figures.systemUsPerRequest)} | ${own ? '—' : share(ceiling?.userUsPerRequest, figures.userUsPerRequest)} | ${own ? '—' : share(ceiling?.systemUsPerRequest, figures.systemUsPerRequest)} |`);
    }
  }
  return rows;
}

/**
 * Issue 43 goal 2's tail over the rounds: per route and gateway, its p99 over the same-headers ceiling's
 * (the two-header one when no other was measured) round r against round r, as the median and min–max of
 * those ratios beside each side's p99 spread, with the 1.5× target on the routes it applies to. A median of
 * the rounds' p99s hides a round whose tail was long; the spread shows it. Empty when no figure has rounds.
 */
export function renderTailSpread(routes: readonly RouteFigures[]): string[] {
  if (!routes.some((figures) => figures.p99Rounds !== undefined)) return [];
  const against: ServerMode = routes.some((figures) => figures.mode === 'ceiling, same headers') ? 'ceiling, same headers' : 'ceiling';
  const rows = [`| route | server | p99 ms, median (min–max) | ${against} p99 ms | p99 / ceiling p99, round by round: median (min–max) | target |`, '|---|---|---:|---:|---:|---|'];
  const spreadCell = (spread: Spread, digits: number, unit = '') => (Number.isFinite(spread.median) ? `${fixed(spread.median, digits)}${unit} (${fixed(spread.min, digits)}–${fixed(spread.max, digits)}${unit})` : '—');
  const order: RouteId[] = [];
  for (const figures of routes) if (!order.includes(figures.route)) order.push(figures.route);
  for (const route of order) {
    const ceiling = routes.find((figures) => figures.route === route && figures.mode === against);
    if (ceiling?.p99Rounds === undefined) continue;
    for (const figures of routes.filter((candidate) => candidate.route === route && !isCeiling(candidate.mode) && candidate.p99Rounds !== undefined)) {
      const ratios = pairedRatios(figures.p99Rounds ?? [], ceiling.p99Rounds);
      const verdict = isTailTargetRoute(route) && Number.isFinite(ratios.median) ? atMost(ratios.median, 1.5, '× p99', 2) : undefined;
      rows.push(`| ${route} | ${figures.mode} | ${spreadCell(spreadOf(figures.p99Rounds ?? []), 2)} | ${spreadCell(spreadOf(ceiling.p99Rounds), 2)} | ${spreadCell(ratios, 2, '×')} | ${verdict === undefined ? '—' : `${verdict.met ? '✅' : '❌'} ${verdict.text}`} |`);
    }
  }
  return rows;
}

/** `mine[r] / theirs[r]` over the rounds both measured (finite ratios only): median and min–max. */
export function pairedRatios(mine: readonly number[], theirs: readonly number[]): Spread {
  const ratios: number[] = [];
  for (let round = 0; round < Math.min(mine.length, theirs.length); round++) {
    const ratio = (mine[round] as number) / (theirs[round] as number);
    if (Number.isFinite(ratio)) ratios.push(ratio);
  }
  return spreadOf(ratios);
}

/**
 * The lowest of the rounds' ratios of `ceiling`'s CPU per request to `gateway`'s, round r against round r
 * (each round drives both in turn): issue 35 asks for 80% in every run, not only of the medians.
 */
export function worstRoundShare(gateway: Pick<RouteFigures, 'cpuRounds'>, ceiling: Pick<RouteFigures, 'cpuRounds'>): number {
  let worst = Number.NaN;
  for (let round = 0; round < Math.min(gateway.cpuRounds.length, ceiling.cpuRounds.length); round++) {
    const share = (ceiling.cpuRounds[round] as number) / (gateway.cpuRounds[round] as number);
    if (Number.isFinite(share) && !(share >= worst)) worst = share;
  }
  return worst;
}

/** Whether issue 35's tail target (p99 at most 1.5× bare node's) applies: the collection, detail and sample, plain or compressed. */
export function isTailTargetRoute(route: RouteId): boolean {
  return (COMPRESSED_ROUTE_IDS as readonly string[]).includes(route.split(' ')[0] as string);
}

/** Build, memory and start-up figures with their targets. */
export function renderFigureTable(report: Pick<BenchReport, 'build' | 'gateways' | 'scale'>): string[] {
  const rows = ['| figure | value | target |', '|---|---:|---|'];
  const mark = (verdict: Verdict | undefined) => (verdict ? `${verdict.met ? '✅' : '❌'} ${verdict.text}` : '—');
  const { build, scale } = report;
  const buildTarget = buildSecondsTarget(scale);
  rows.push(`| synth (corpus generation) | ${build.synthSeconds.toFixed(1)} s | — |`);
  rows.push(`| build, ${build.rows.toLocaleString('en-US')} rows | ${build.buildSeconds.toFixed(1)} s | ${mark(buildTarget === undefined ? undefined : atMost(build.buildSeconds, buildTarget, 's'))} |`);
  // Method item 11: the baseline writes the very rows the built snapshot stores, and nothing else.
  const { rounds, buildSeconds, baselineSeconds, buildCpuSeconds, baselineCpuSeconds } = build.baseline;
  const ratio = buildSeconds.median / baselineSeconds.median;
  const seconds = (figure: Spread) => `${figure.median.toFixed(1)} s (${figure.min.toFixed(1)}–${figure.max.toFixed(1)})`;
  const cpu = buildCpuSeconds === undefined || baselineCpuSeconds === undefined
    ? ''
    : `; CPU build ${seconds(buildCpuSeconds)}, baseline ${seconds(baselineCpuSeconds)}: ${(buildCpuSeconds.median / baselineCpuSeconds.median).toFixed(2)}x`;
  rows.push(`| build / plain SQLite build of the same rows, ${plural(rounds, 'round')} alternating: build ${seconds(buildSeconds)}, baseline ${seconds(baselineSeconds)}${cpu} | ${ratio.toFixed(2)}x (median / median, wall) | ${mark(atMost(ratio, 2.2, 'x', 2))} |`);
  const peakMib = build.peakRssBytes === undefined ? undefined : build.peakRssBytes / 2 ** 20;
  rows.push(`| build peak RSS (${build.rssSource}) | ${peakMib === undefined ? 'n/a' : `${peakMib.toFixed(0)} MiB`} | ${mark(atMost(peakMib, 1024, 'MiB', 0))} (1 GiB) |`);
  const rssTarget = gatewayRssTargetMb(scale);
  for (const gateway of report.gateways) {
    rows.push(`| ${gateway.mode}: RSS at rest | ${mb(gateway.restRssBytes)} | ${mark(rssTarget === undefined ? undefined : atMost(megabytes(gateway.restRssBytes), rssTarget, 'MB', 0))} |`);
    rows.push(`| ${gateway.mode}: RSS under load (peak) | ${mb(gateway.loadRssBytes)} | ${mark(rssTarget === undefined ? undefined : atMost(megabytes(gateway.loadRssBytes), rssTarget, 'MB', 0))} |`);
    const startTarget = atMost(gateway.firstResponseMs / 1000, 1, 's', 2);
    rows.push(`| ${gateway.mode}: spawn to first licensed 200 (listening at ${(gateway.listeningMs / 1000).toFixed(2)} s) | ${(gateway.firstResponseMs / 1000).toFixed(2)} s | ${scale === 10 ? mark(startTarget) : `${startTarget.target} at 570k rows (here ${startTarget.met ? 'within' : 'over'})`} |`);
  }
  return rows;
}

function renderProfile(profile: ProfileSummary): string[] {
  const rows = [`CPU profile of the gateway (\`node --cpu-prof\`), ${profile.seconds} s of load on ${profile.route}, top self time:`, '', '| self | share | function |', '|---:|---:|---|'];
  for (const hot of profile.top) rows.push(`| ${hot.selfMs.toFixed(0)} ms | ${(hot.share * 100).toFixed(1)}% | \`${hot.location}\` |`);
  return rows;
}

/** Replaces (or appends) the section between `<!-- bench:<id>:begin -->` and `<!-- bench:<id>:end -->`. */
export function replaceSection(document: string, id: string, body: string): string {
  const begin = `<!-- bench:${id}:begin -->`;
  const end = `<!-- bench:${id}:end -->`;
  const section = `${begin}\n${body.trimEnd()}\n${end}`;
  const from = document.indexOf(begin);
  const to = document.indexOf(end);
  if (from >= 0 && to > from) return `${document.slice(0, from)}${section}${document.slice(to + end.length)}`;
  return `${document.trimEnd()}\n\n${section}\n`;
}

function find(all: readonly RouteFigures[], route: RouteId, mode: ServerMode): RouteFigures | undefined {
  return all.find((figures) => figures.route === route && figures.mode === mode);
}

function megabytes(bytes: number | undefined): number | undefined {
  return bytes === undefined ? undefined : bytes / 1e6;
}

function mb(bytes: number | undefined): string {
  return bytes === undefined ? 'n/a' : `${(bytes / 1e6).toFixed(0)} MB`;
}

function whole(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}
