/**
 * Renders `npm run bench -- --compare <ref>` as Markdown: per route, the ref's gateway (A), this tree's
 * (B) and the ceiling side by side, each as the median and the min–max of its rounds, with B/A and each
 * gateway's ratio to the ceiling, once by req/s and once by server CPU per request.
 */
import type { RouteFigures, RouteId, RunSetup } from './render-report.ts';
import type { Spread } from './round-statistics.ts';

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
  /** Figures of modes `gateway A`, `gateway B` and `ceiling`, per route. */
  routes: RouteFigures[];
  notes: string[];
  elapsedSeconds: number;
}

/** The Markdown section of a comparison (no surrounding markers). */
export function renderCompareReport(report: CompareReport): string {
  const lines: string[] = [];
  lines.push(`### Bench protocol: --compare — \`${report.command}\` — ${report.date}`, '');
  lines.push(`- machine: ${report.machine}`);
  lines.push(`- load: ${report.loadTool}, ${report.connections} connections, ${report.rounds} rounds of ${report.roundSeconds} s per route and server, interleaved A, B, ceiling, A, B, ceiling… after a warm-up`);
  lines.push(`- corpus: \`hra synth --seed 1 --scale ${report.scale}\` (this tree's), ${report.rows.toLocaleString('en-US')} rows, built by each tree's own \`hra build\``);
  for (const [name, side] of [['A', report.a], ['B', report.b]] as const) {
    lines.push(`- ${name}: ${side.label} (\`${side.commit.slice(0, 12)}\`), build ${side.buildSeconds.toFixed(1)} s, revision \`${side.revision.slice(0, 16)}…\`, spawn to first licensed 200 ${(side.firstResponseMs / 1000).toFixed(2)} s`);
  }
  lines.push(`- run took ${report.elapsedSeconds.toFixed(0)} s`, '');
  lines.push('req/s (median, min–max over the rounds; higher is better):', '', ...renderCompareTable(report.routes, 'rps'), '');
  lines.push('server CPU µs per request (user + system from /proc, median, min–max; lower is better; "vs ceiling" = ceiling CPU / gateway CPU):', '', ...renderCompareTable(report.routes, 'cpu'), '');
  if (report.notes.length > 0) lines.push(...report.notes.map((note) => `- ${note}`), '');
  return lines.join('\n');
}

/**
 * One row per route that has both gateways: A, B and the ceiling with their spreads, then B/A and each
 * gateway against the ceiling (by req/s: gateway / ceiling; by CPU: ceiling / gateway, so that both read
 * as "share of the ceiling").
 */
export function renderCompareTable(routes: readonly RouteFigures[], by: 'rps' | 'cpu'): string[] {
  const rows = ['| route | A | B | ceiling | B/A | A vs ceiling | B vs ceiling |', '|---|---:|---:|---:|---:|---:|---:|'];
  const order: RouteId[] = [];
  for (const figures of routes) if (!order.includes(figures.route)) order.push(figures.route);
  for (const route of order) {
    const pick = (mode: RouteFigures['mode']) => routes.find((figures) => figures.route === route && figures.mode === mode);
    const [a, b, ceiling] = [pick('gateway A'), pick('gateway B'), pick('ceiling')];
    if (!a || !b) continue;
    const spread = (figures: RouteFigures | undefined) => (figures === undefined ? undefined : by === 'rps' ? figures.rps : figures.cpuUsPerRequest);
    const [sa, sb, sc] = [spread(a), spread(b), spread(ceiling)];
    const share = (gateway: Spread | undefined) => (gateway === undefined || sc === undefined ? undefined : by === 'rps' ? gateway.median / sc.median : sc.median / gateway.median);
    const dirty = [a, b, ceiling].some((figures) => figures !== undefined && figures.non2xx + figures.errors > 0) ? ' ⚠ non-2xx or socket errors' : '';
    rows.push(`| ${route}${dirty} | ${withSpread(sa)} | ${withSpread(sb)} | ${withSpread(sc)} | ${ratio(sa && sb && sb.median / sa.median)} | ${percent(share(sa))} | ${percent(share(sb))} |`);
  }
  return rows;
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
