/**
 * Renders `npm run bench -- --compare <ref>` as Markdown: per route, the ref's gateway (A), this tree's
 * (B) and the ceilings (two headers; and, when measured, the same-headers one the issue's goal names)
 * side by side, each as the median and the min–max of its rounds, with B/A and each gateway's ratio to
 * each ceiling, once by req/s and once by server CPU per request.
 */
import { atMost } from './bench-targets.ts';
import { isTailTargetRoute, renderCpuSplit, renderTailSpread, worstRoundShare, type RouteFigures, type RouteId, type RunSetup, type ServerMode } from './render-report.ts';
import type { Spread } from './round-statistics.ts';

/**
 * The servers of a comparison in the order each round drives them: both trees, then both ceilings of B's
 * bytes (two headers; B's own captured head, the ceiling issue 25's goal names).
 */
export const COMPARE_MODES = ['gateway A', 'gateway B', 'ceiling', 'ceiling, same headers'] as const satisfies readonly ServerMode[];

/**
 * Both trees' gateways with `--redis`, against one redis-server (a database each), joined to the rotation
 * of the routes the `--redis` phase repeats, after A and B and before the ceilings.
 */
export const COMPARE_REDIS_MODES = ['gateway A --redis', 'gateway B --redis'] as const satisfies readonly ServerMode[];

/** The pair of gateways one row of a comparison table sets against each other, and the suffix of its label. */
const COMPARED_PAIRS = [
  { a: 'gateway A', b: 'gateway B', label: '' },
  { a: 'gateway A --redis', b: 'gateway B --redis', label: ' --redis' },
] as const satisfies ReadonlyArray<{ a: ServerMode; b: ServerMode; label: string }>;

/** One tree of the comparison. */
export interface ComparedSide {
  /** What the user named (`HEAD~1`, `working tree`) and the commit it was. */
  label: string;
  commit: string;
  buildSeconds: number;
  revision: string;
  firstResponseMs: number;
}

/** Everything a comparison run measured. */
export interface CompareReport extends RunSetup {
  rows: number;
  a: ComparedSide;
  b: ComparedSide;
  /** Figures of modes `gateway A`, `gateway B`, `ceiling` and (optionally) `ceiling, same headers`, per route. */
  routes: RouteFigures[];
  notes: string[];
  elapsedSeconds: number;
}

/** The Markdown section of a comparison (no surrounding markers). */
export function renderCompareReport(report: CompareReport): string {
  const lines: string[] = [];
  lines.push(`### Bench protocol: --compare — \`${report.command}\` — ${report.date}`, '');
  lines.push(`- machine: ${report.machine}`);
  const rotation = hasSameHeaders(report.routes) ? 'A, B, ceiling, same-headers ceiling' : 'A, B, ceiling';
  const redisRoutes = [...new Set(report.routes.filter((figures) => figures.mode === 'gateway B --redis').map((figures) => figures.route))];
  const redisRotation = redisRoutes.length === 0 ? '' : ` (on ${redisRoutes.join(', ')}: ${rotation.replace('B, ', 'B, A --redis, B --redis, ')}, …)`;
  lines.push(`- load: ${report.loadTool}, ${report.connections} connections, ${report.rounds} rounds of ${report.roundSeconds} s per route and server, interleaved ${rotation}, ${rotation}…${redisRotation} after a warm-up`);
  lines.push(`- corpus: \`hra synth --seed 1 --scale ${report.scale}\` (this tree's), ${report.rows.toLocaleString('en-US')} rows, built by each tree's own \`hra build\``);
  for (const [name, side] of [['A', report.a], ['B', report.b]] as const) {
    lines.push(`- ${name}: ${side.label} (\`${side.commit.slice(0, 12)}\`), build ${side.buildSeconds.toFixed(1)} s, revision \`${side.revision.slice(0, 16)}…\`, spawn to first licensed 200 ${(side.firstResponseMs / 1000).toFixed(2)} s`);
  }
  lines.push(`- run took ${report.elapsedSeconds.toFixed(0)} s`, '');
  lines.push('req/s (median, min–max over the rounds; higher is better):', '', ...renderCompareTable(report.routes, 'rps'), '');
  lines.push('server CPU µs per request (user + system from /proc, median, min–max; lower is better; "vs ceiling" = ceiling CPU / gateway CPU):', '', ...renderCompareTable(report.routes, 'cpu'), '');
  const split = renderCpuSplit(report.routes);
  if (split.length > 0) lines.push('the same, user and kernel time apart:', '', ...split, '');
  const tails = renderTailSpread(report.routes);
  if (tails.length > 0) lines.push('p99 over the rounds, each tree\'s round against the ceiling\'s same round:', '', ...tails, '');
  lines.push('latency at the connections above, ms (wrk, median of the rounds; p99.9 from a done() hook); B p99 / ceiling p99 against the ceiling that sends B\'s own head, in the same rounds:', '', ...renderCompareLatency(report.routes), '');
  if (report.notes.length > 0) lines.push(...report.notes.map((note) => `- ${note}`), '');
  return lines.join('\n');
}

/**
 * Per route, the p50, p99 and p99.9 of A, B and the same-headers ceiling (the two-header one when no other
 * was measured), with each tree's p99 over the ceiling's and issue 35's target (at most 1.5×) for B.
 */
export function renderCompareLatency(routes: readonly RouteFigures[]): string[] {
  const against: ServerMode = hasSameHeaders(routes) ? 'ceiling, same headers' : 'ceiling';
  const rows = [`| route | A p50 / p99 / p99.9 | B p50 / p99 / p99.9 | ${against} p50 / p99 / p99.9 | A p99 / ceiling p99 | B p99 / ceiling p99 | target |`, '|---|---:|---:|---:|---:|---:|---|'];
  const order: RouteId[] = [];
  for (const figures of routes) if (!order.includes(figures.route)) order.push(figures.route);
  const triple = (figures: RouteFigures | undefined) => (figures === undefined ? 'n/a' : [figures.p50Ms, figures.p99Ms, figures.p999Ms].map((value) => (Number.isFinite(value) ? value.toFixed(2) : 'n/a')).join(' / '));
  for (const route of order) {
    const pick = (mode: ServerMode) => routes.find((figures) => figures.route === route && figures.mode === mode);
    const [a, b, ceiling] = [pick('gateway A'), pick('gateway B'), pick(against)];
    if (!a || !b) continue;
    const tailA = ceiling && a.p99Ms / ceiling.p99Ms;
    const tailB = ceiling && b.p99Ms / ceiling.p99Ms;
    const verdict = tailB !== undefined && isTailTargetRoute(route) ? atMost(tailB, 1.5, '×', 2) : undefined;
    rows.push(`| ${route} | ${triple(a)} | ${triple(b)} | ${triple(ceiling)} | ${ratio(tailA)} | ${ratio(tailB)} | ${verdict === undefined ? '—' : `${verdict.met ? '✅' : '❌'} ${verdict.text}`} |`);
  }
  return rows;
}

/**
 * One row per route that has both gateways (and a `<route> --redis` row below it when both trees were
 * driven with `--redis` too, against the same ceilings): A, B and the ceilings with their spreads, then B/A and each
 * gateway against each ceiling (by req/s: gateway / ceiling; by CPU: ceiling / gateway, so that all read
 * as "share of the ceiling"). The same-headers columns appear when that ceiling was measured.
 */
export function renderCompareTable(routes: readonly RouteFigures[], by: 'rps' | 'cpu'): string[] {
  const same = hasSameHeaders(routes);
  const rows = same
    ? by === 'cpu'
      ? ['| route | A | B | ceiling | ceiling, same headers | B/A | A vs ceiling | B vs ceiling | A vs same headers | B vs same headers | B vs same headers, worst round |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|']
      : ['| route | A | B | ceiling | ceiling, same headers | B/A | A vs ceiling | B vs ceiling | A vs same headers | B vs same headers |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|']
    : ['| route | A | B | ceiling | B/A | A vs ceiling | B vs ceiling |', '|---|---:|---:|---:|---:|---:|---:|'];
  const order: RouteId[] = [];
  for (const figures of routes) if (!order.includes(figures.route)) order.push(figures.route);
  for (const route of order) {
    for (const pair of COMPARED_PAIRS) {
      const pick = (mode: RouteFigures['mode']) => routes.find((figures) => figures.route === route && figures.mode === mode);
      const [a, b, ceiling, sameCeiling] = [pick(pair.a), pick(pair.b), pick('ceiling'), pick('ceiling, same headers')];
      if (!a || !b) continue;
      const spread = (figures: RouteFigures | undefined) => (figures === undefined ? undefined : by === 'rps' ? figures.rps : figures.cpuUsPerRequest);
      const [sa, sb, sc, ss] = [spread(a), spread(b), spread(ceiling), spread(sameCeiling)];
      const share = (gateway: Spread | undefined, against: Spread | undefined) =>
        gateway === undefined || against === undefined ? undefined : by === 'rps' ? gateway.median / against.median : against.median / gateway.median;
      const dirty = [a, b, ceiling, sameCeiling].some((figures) => figures !== undefined && figures.non2xx + figures.errors > 0) ? ' ⚠ non-2xx or socket errors' : '';
      const cells = same
        ? [withSpread(sa), withSpread(sb), withSpread(sc), withSpread(ss), ratio(sa && sb && sb.median / sa.median), percent(share(sa, sc)), percent(share(sb, sc)), percent(share(sa, ss)), percent(share(sb, ss)), ...(by === 'cpu' ? [percent(sameCeiling && worstRoundShare(b, sameCeiling))] : [])]
        : [withSpread(sa), withSpread(sb), withSpread(sc), ratio(sa && sb && sb.median / sa.median), percent(share(sa, sc)), percent(share(sb, sc))];
      rows.push(`| ${route}${pair.label}${dirty} | ${cells.join(' | ')} |`);
    }
  }
  return rows;
}

/** Whether the run measured the same-headers ceiling beside the two-header one. */
function hasSameHeaders(routes: readonly RouteFigures[]): boolean {
  return routes.some((figures) => figures.mode === 'ceiling, same headers');
}

function withSpread(spread: Spread | undefined): string {
  if (spread === undefined || !Number.isFinite(spread.median)) return 'n/a';
  return `${whole(spread.median)} (${whole(spread.min)}–${whole(spread.max)})`;
}

function whole(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function ratio(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(2)}×`;
}

function percent(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : `${(value * 100).toFixed(0)}%`;
}
