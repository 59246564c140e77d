import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseBenchOptions, sectionId } from '../../../scripts/bench/bench-options.ts';
import { resolveCommit, sameLockfile } from '../../../scripts/bench/compare-tree.ts';
import { interleavedRounds } from '../../../scripts/bench/drive-rounds.ts';
import { COMPARE_MODES, renderCompareLatency, renderCompareReport, renderCompareTable, type CompareReport } from '../../../scripts/bench/render-compare.ts';
import { ROUTE_IDS, type RouteFigures } from '../../../scripts/bench/render-report.ts';
import { compareReport, figures, SAME_HEADERS_ROUTES } from './compare-fixtures.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

describe('--compare on the command line', () => {
  it('takes a git ref and gives comparisons their own section per scale', () => {
    const options = parseBenchOptions(['--quick', '--compare', 'HEAD~1']);
    assert.equal(options.compare, 'HEAD~1');
    assert.equal(sectionId(options), 'compare-scale-1-quick');
    assert.equal(sectionId(parseBenchOptions(['--compare', 'd1f77f7', '--scale', '2'])), 'compare-scale-2');
    assert.equal(parseBenchOptions([]).compare, undefined);
  });
  it('refuses a missing ref, an option where the ref goes, and --links beside it', () => {
    assert.throws(() => parseBenchOptions(['--compare']), /^Error: --compare needs a value/);
    assert.throws(() => parseBenchOptions(['--compare', '--quick']), /--compare needs a git ref .* got "--quick"/);
    assert.throws(() => parseBenchOptions(['--links', '--compare', 'main']), /cannot be combined with --links/);
  });
});

describe('interleavedRounds', () => {
  it('runs A, B, ceiling, then again, round after round', () => {
    const order = interleavedRounds(['A', 'B', 'ceiling'], 3).map(({ round, server }) => `${server}${round}`);
    assert.deepEqual(order, ['A1', 'B1', 'ceiling1', 'A2', 'B2', 'ceiling2', 'A3', 'B3', 'ceiling3']);
    assert.deepEqual(interleavedRounds(['A'], 0), []);
  });
});

describe('the ref of a comparison', () => {
  it('resolves to its commit, and names a ref that is none in one line', () => {
    assert.equal(resolveCommit(process.cwd(), 'HEAD'), execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim());
    assert.throws(() => resolveCommit(process.cwd(), 'no-such-ref-for-the-bench'), /^Error: --compare no-such-ref-for-the-bench: not a commit in /);
  });
  it('shares node_modules only when both lockfiles are byte for byte the same', () => {
    const [a, b] = [makeTempDir('hra-lock-a-'), makeTempDir('hra-lock-b-')];
    try {
      assert.equal(sameLockfile(a, b), false, 'no lockfile: nothing to share');
      writeFileSync(join(a, 'package-lock.json'), '{"lockfileVersion":3}\n');
      writeFileSync(join(b, 'package-lock.json'), '{"lockfileVersion":3}\n');
      assert.equal(sameLockfile(a, b), true);
      writeFileSync(join(b, 'package-lock.json'), '{"lockfileVersion":3} \n');
      assert.equal(sameLockfile(a, b), false);
    } finally {
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    }
  });
});

const ROUTES = [
  figures('unfiltered', 'gateway A', [4000, 3900, 4200], [100, 95, 110]),
  figures('unfiltered', 'gateway B', [6000, 5800, 6100], [50, 48, 55]),
  figures('unfiltered', 'ceiling', [8000, 7500, 8100], [40, 39, 42]),
  figures('detail', 'gateway A', [5000, 5000, 5000], [80, 80, 80]),
  figures('detail', 'gateway B', [5000, 4000, 5500], [80, 70, 90], 3),
  figures('health', 'gateway B', [9000, 9000, 9000], [10, 10, 10]),
];

describe('renderCompareTable', () => {
  it('puts A, B and the ceiling side by side with spreads, B/A and each against the ceiling, by req/s', () => {
    assert.deepEqual(renderCompareTable(ROUTES, 'rps'), [
      '| route | A | B | ceiling | B/A | A vs ceiling | B vs ceiling |',
      '|---|---:|---:|---:|---:|---:|---:|',
      '| unfiltered | 4,000 (3,900–4,200) | 6,000 (5,800–6,100) | 8,000 (7,500–8,100) | 1.50× | 50% | 75% |',
      '| detail ⚠ non-2xx or socket errors | 5,000 (5,000–5,000) | 5,000 (4,000–5,500) | n/a | 1.00× | — | — |',
    ]);
  });
  it('reads CPU per request the other way round against the ceiling: ceiling CPU / gateway CPU', () => {
    const rows = renderCompareTable(ROUTES, 'cpu');
    assert.equal(rows[2], '| unfiltered | 100 (95–110) | 50 (48–55) | 40 (39–42) | 0.50× | 40% | 80% |');
    assert.equal(rows.length, 4, 'a route measured on one tree only has no row');
  });
});

describe('renderCompareReport', () => {
  it('names both trees with their commits, builds and start-up, then both tables', () => {
    const report: CompareReport = {
      command: 'npm run bench -- --quick --compare HEAD~1', date: '2026-11-26 06:00 UTC', machine: 'test machine', loadTool: 'wrk (1 thread)', connections: 64, rounds: 2, roundSeconds: 2, scale: 1, rows: 57000,
      a: { label: 'HEAD~1', commit: 'a'.repeat(40), buildSeconds: 6.04, revision: `gm1-${'1'.repeat(64)}`, firstResponseMs: 1234 },
      b: { label: 'this tree', commit: 'b'.repeat(40), buildSeconds: 5.96, revision: `gm1-${'2'.repeat(64)}`, firstResponseMs: 1100 },
      routes: ROUTES, notes: ['a note'], elapsedSeconds: 300,
    };
    const text = renderCompareReport(report);
    assert.match(text, /^### Bench protocol: --compare — `npm run bench -- --quick --compare HEAD~1` — 2026-11-26 06:00 UTC\n/);
    assert.match(text, /\n- A: HEAD~1 \(`aaaaaaaaaaaa`\), build 6\.0 s, revision `gm1-111111111111…`, spawn to first licensed 200 1\.23 s\n/);
    assert.match(text, /\n- B: this tree \(`bbbbbbbbbbbb`\), build 6\.0 s/);
    assert.match(text, /interleaved A, B, ceiling, A, B, ceiling/);
    assert.ok(text.indexOf('| unfiltered | 4,000 (3,900–4,200)') < text.indexOf('| unfiltered | 100 (95–110)'), 'req/s table first, then CPU');
    assert.match(text, /\n- a note\n/);
  });
});

// Issue 25's goal is stated against the same-headers ceiling: a comparison measures it beside the
// two-header one and puts each tree against both.


describe('a comparison\'s rotation', () => {
  it('drives A, B, the two-header ceiling and the same-headers ceiling, then again, round after round', () => {
    const order = interleavedRounds(COMPARE_MODES, 2).map(({ round, server }) => `${server} ${round}`);
    assert.deepEqual(order, [
      'gateway A 1', 'gateway B 1', 'ceiling 1', 'ceiling, same headers 1',
      'gateway A 2', 'gateway B 2', 'ceiling 2', 'ceiling, same headers 2',
    ]);
  });
});

describe('renderCompareTable with the same-headers ceiling', () => {
  it('puts both ceilings side by side and each tree against each, by req/s', () => {
    assert.deepEqual(renderCompareTable(SAME_HEADERS_ROUTES, 'rps'), [
      '| route | A | B | ceiling | ceiling, same headers | B/A | A vs ceiling | B vs ceiling | A vs same headers | B vs same headers |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      '| unfiltered | 4,000 (3,900–4,200) | 6,000 (5,800–6,100) | 8,000 (7,500–8,100) | 7,500 (7,000–7,600) | 1.50× | 50% | 75% | 53% | 80% |',
      '| detail ⚠ non-2xx or socket errors | 5,000 (5,000–5,000) | 5,000 (4,000–5,500) | 10,000 (9,000–11,000) | 9,000 (8,000–9,500) | 1.00× | 50% | 50% | 56% | 56% |',
    ]);
  });
  it('reads CPU as ceiling CPU / gateway CPU against both ceilings', () => {
    const rows = renderCompareTable(SAME_HEADERS_ROUTES, 'cpu');
    assert.equal(rows[2], '| unfiltered | 100 (95–110) | 50 (48–55) | 40 (39–42) | 45 (44–47) | 0.50× | 40% | 80% | 45% | 90% | 85% |', 'worst round: 47 µs against 55');
    assert.equal(rows[3], '| detail ⚠ non-2xx or socket errors | 80 (80–80) | 80 (70–90) | 20 (19–21) | 24 (23–26) | 1.00× | 25% | 25% | 30% | 30% | 29% |');
  });
  it('marks a same-headers ceiling missing on one route as n/a, not as a share', () => {
    const rows = renderCompareTable(SAME_HEADERS_ROUTES.filter((row) => !(row.route === 'detail' && row.mode === 'ceiling, same headers')), 'cpu');
    assert.equal(rows[3], '| detail | 80 (80–80) | 80 (70–90) | 20 (19–21) | n/a | 1.00× | 25% | 25% | — | — | — |');
  });
});

describe('renderCompareReport with the same-headers ceiling', () => {
  it('names the four-server rotation in its load line', () => {
    const report = compareReport(SAME_HEADERS_ROUTES);
    const text = renderCompareReport(report);
    assert.match(text, /interleaved A, B, ceiling, same-headers ceiling, A, B, ceiling, same-headers ceiling… after a warm-up/);
    assert.match(text, /\n\| unfiltered \| 100 \(95–110\) \| 50 \(48–55\) \| 40 \(39–42\) \| 45 \(44–47\) \| 0\.50× \| 40% \| 80% \| 45% \| 90% \| 85% \|\n/);
  });
});

describe('renderCompareLatency', () => {
  it('sets each tree\'s p50, p99 and p99.9 beside the same-headers ceiling\'s, with B\'s p99 over it against issue 35\'s 1.5×', () => {
    const tail = (route: RouteFigures['route'], mode: RouteFigures['mode'], p99Ms: number): RouteFigures => ({ ...figures(route, mode, [1, 1, 1], [1, 1, 1]), p99Ms });
    const rows = renderCompareLatency([
      tail('unfiltered (br)', 'gateway A', 8), tail('unfiltered (br)', 'gateway B', 5), tail('unfiltered (br)', 'ceiling', 2), tail('unfiltered (br)', 'ceiling, same headers', 4),
      tail('detail (gzip)', 'gateway A', 8), tail('detail (gzip)', 'gateway B', 7), tail('detail (gzip)', 'ceiling, same headers', 4),
      tail('health', 'gateway A', 8), tail('health', 'gateway B', 8), tail('health', 'ceiling, same headers', 4),
    ]);
    assert.deepEqual(rows.slice(2), [
      '| unfiltered (br) | 1.00 / 8.00 / 9.00 | 1.00 / 5.00 / 9.00 | 1.00 / 4.00 / 9.00 | 2.00× | 1.25× | ✅ ≤ 1.5 ×: met |',
      '| detail (gzip) | 1.00 / 8.00 / 9.00 | 1.00 / 7.00 / 9.00 | 1.00 / 4.00 / 9.00 | 2.00× | 1.75× | ❌ ≤ 1.5 ×: missed by 0.25 × (117% of target) |',
      '| health | 1.00 / 8.00 / 9.00 | 1.00 / 8.00 / 9.00 | 1.00 / 4.00 / 9.00 | 2.00× | 2.00× | — |',
    ]);
  });
});

describe('the routes a run drives', () => {
  it('follow the collection, detail and sample with their br and gzip variants', () => {
    assert.deepEqual(ROUTE_IDS, ['unfiltered', 'unfiltered (br)', 'unfiltered (gzip)', 'filtered-miss', 'filtered-hit', 'detail', 'detail (br)', 'detail (gzip)', 'sample', 'sample (br)', 'sample (gzip)', 'changes', 'health']);
  });
});
