/** Figures of comparison runs for the tests of the compare report: one builder and one shared table. */
import type { CompareReport } from '../../../scripts/bench/render-compare.ts';
import type { RouteFigures } from '../../../scripts/bench/render-report.ts';

export const figures = (route: RouteFigures['route'], mode: RouteFigures['mode'], rps: [number, number, number], cpu: [number, number, number], non2xx = 0): RouteFigures => ({
  route, mode, path: '/p', rps: { median: rps[0], min: rps[1], max: rps[2] }, p50Ms: 1, p99Ms: 4, p99WorstMs: 6, p999Ms: 9, bytesPerResponse: 100,
  cpuUsPerRequest: { median: cpu[0], min: cpu[1], max: cpu[2] }, cpuRounds: cpu, non2xx, errors: 0,
});

/** Both trees and both ceilings on two routes; the detail's same-headers ceiling answered 2 non-2xx. */
export const SAME_HEADERS_ROUTES = [
  figures('unfiltered', 'gateway A', [4000, 3900, 4200], [100, 95, 110]),
  figures('unfiltered', 'gateway B', [6000, 5800, 6100], [50, 48, 55]),
  figures('unfiltered', 'ceiling', [8000, 7500, 8100], [40, 39, 42]),
  figures('unfiltered', 'ceiling, same headers', [7500, 7000, 7600], [45, 44, 47]),
  figures('detail', 'gateway A', [5000, 5000, 5000], [80, 80, 80]),
  figures('detail', 'gateway B', [5000, 4000, 5500], [80, 70, 90]),
  figures('detail', 'ceiling', [10000, 9000, 11000], [20, 19, 21]),
  figures('detail', 'ceiling, same headers', [9000, 8000, 9500], [24, 23, 26], 2),
];

/** A quick comparison of main (A) with this tree (B), both building the same revision, over `routes`. */
export function compareReport(routes: RouteFigures[]): CompareReport {
  return {
    command: 'npm run bench -- --quick --compare main', date: '2026-11-26 10:00 UTC', machine: 'test machine', loadTool: 'wrk (1 thread)', connections: 64, rounds: 2, roundSeconds: 2, scale: 1, rows: 57000,
    a: { label: 'main', commit: 'a'.repeat(40), buildSeconds: 6, revision: `gm1-${'1'.repeat(64)}`, firstResponseMs: 800 },
    b: { label: 'this tree', commit: 'b'.repeat(40), buildSeconds: 6, revision: `gm1-${'1'.repeat(64)}`, firstResponseMs: 800 },
    routes, notes: [], elapsedSeconds: 200,
  };
}
