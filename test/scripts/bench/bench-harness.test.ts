import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBenchOptions, sectionId } from '../../../scripts/bench/bench-options.ts';
import { atLeastRatio, atMost, withinBelow } from '../../../scripts/bench/bench-targets.ts';
import { createMissQueries, missQueriesLua } from '../../../scripts/bench/miss-queries.ts';
import { LATENCY_HOOK_LUA, parseWrkOutput } from '../../../scripts/bench/parse-wrk-output.ts';
import { replayableHead } from '../../../scripts/bench/replayable-head.ts';
import { pairedRatios, renderCeilingRatios, renderCpuSplit, renderFigureTable, renderRouteTable, renderTailSpread, replaceSection, worstRoundShare, type RouteFigures } from '../../../scripts/bench/render-report.ts';
import { median, spreadOf } from '../../../scripts/bench/round-statistics.ts';
import { summarizeCpuProfile } from '../../../scripts/bench/summarize-cpu-profile.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const WRK_REPORT = `Running 10s test @ http://127.0.0.1:4000/api/programs/x
  1 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.10ms  800.00us  20.01ms   90.00%
    Req/Sec    20.50k     1.20k   22.00k    70.00%
  Latency Distribution
     50%  812.00us
     75%    3.20ms
     90%    4.00ms
     99%    1.20s
  205000 requests in 10.00s, 2.00GB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 7
Requests/sec:  20499.87
Transfer/sec:    204.80MB
`;

describe('renderFigureTable', () => {
  const build = (cpu: boolean) => ({
    rows: 56984,
    synthSeconds: 10,
    buildSeconds: 4,
    peakRssBytes: 300 * 2 ** 20,
    rssSource: '/usr/bin/time -v',
    revision: 'gm1-x',
    baseline: {
      rounds: 5,
      buildSeconds: spreadOf([4, 3.8, 4.4, 4.1, 3.9]),
      baselineSeconds: spreadOf([0.5, 0.4, 0.6, 0.5, 0.5]),
      ...(cpu ? { buildCpuSeconds: spreadOf([6, 6.2, 5.8, 6, 6.1]), baselineCpuSeconds: spreadOf([0.5, 0.5, 0.6, 0.5, 0.4]) } : {}),
    },
  });
  const baselineRows = (cpu: boolean) => renderFigureTable({ build: build(cpu), gateways: [], scale: 1 }).filter((row) => row.includes('SQLite'));

  it('holds the build against the one baseline, the plain SQLite build of the same rows, by wall and by CPU', () => {
    assert.deepEqual(baselineRows(true), [
      '| build / plain SQLite build of the same rows, 5 rounds alternating: build 4.0 s (3.8–4.4), baseline 0.5 s (0.4–0.6); CPU build 6.0 s (5.8–6.2), baseline 0.5 s (0.4–0.6): 12.00x | 8.00x (median / median, wall) | ❌ ≤ 2.2 x: missed by 5.80 x (364% of target) |',
    ]);
  });

  it('leaves the CPU out when GNU time did not read it', () => {
    assert.equal(baselineRows(false).length, 1);
    assert.ok(!baselineRows(false)[0]!.includes('CPU'));
  });
});

describe('parseWrkOutput', () => {
  it('reads rate, percentiles in their units, totals and errors', () => {
    const result = parseWrkOutput(WRK_REPORT);
    assert.equal(result.requestsPerSecond, 20499.87);
    assert.equal(result.p50Ms, 0.812);
    assert.equal(result.p99Ms, 1200);
    assert.equal(result.requests, 205000);
    assert.equal(result.non2xx, 7);
    assert.equal(result.errors, 3);
    assert.equal(Math.round(result.bytesPerResponse), Math.round((2 * 1024 ** 3) / 205000));
  });
  it('reports a clean run as zero errors', () => {
    const clean = WRK_REPORT.replace(/^\s+Socket errors.*\n/m, '').replace(/^\s+Non-2xx.*\n/m, '');
    assert.deepEqual([parseWrkOutput(clean).non2xx, parseWrkOutput(clean).errors], [0, 0]);
  });
  it('takes p50, p99 and p99.9 from the done() hook\'s line when the script printed one, in whole µs', () => {
    const result = parseWrkOutput(`${WRK_REPORT}hra-latency-us p50=811 p99=1199876 p999=2400000\n`);
    assert.deepEqual([result.p50Ms, result.p99Ms, result.p999Ms], [0.811, 1199.876, 2400]);
    assert.ok(Number.isNaN(parseWrkOutput(WRK_REPORT).p999Ms), 'no hook line: no p99.9');
  });
  it('has a hook that prints the line it reads', () => {
    assert.match(LATENCY_HOOK_LUA, /^function done\(summary, latency, requests\)$/m);
    assert.match(LATENCY_HOOK_LUA, /"hra-latency-us p50=%d p99=%d p999=%d\\n", latency:percentile\(50\), latency:percentile\(99\), latency:percentile\(99\.9\)/);
  });
  it('names the missing line when wrk printed no report', () => {
    assert.throws(() => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused'), /no Requests\/sec line/);
  });
});

describe('median and spreadOf', () => {
  const cases: Array<[number[], number]> = [[[3], 3], [[5, 1, 3], 3], [[4, 1, 3, 2], 2.5]];
  for (const [values, expected] of cases) it(`median of ${values.join(',')} is ${expected}`, () => assert.equal(median(values), expected));
  it('gives the min–max spread and NaN for no rounds', () => {
    assert.deepEqual(spreadOf([10, 30, 20]), { median: 20, min: 10, max: 30 });
    assert.ok(Number.isNaN(spreadOf([]).median));
  });
});

describe('createMissQueries', () => {
  const queries = createMissQueries([['income', ['low', 'any']], ['category', ['a b', 'c']], ['status', ['open']]]);
  it('numbers every combination once, with no unfiltered query', () => {
    assert.equal(queries.size, 3 * 3 * 2);
    const seen = new Set(Array.from({ length: queries.size }, (_, n) => queries.query(n)));
    assert.equal(seen.size, queries.size);
    assert.ok(seen.has('category=bench-none'));
    assert.ok(seen.has('income=low&category=a%20b&status=open'));
  });
  it('keeps requests distinct past the product', () => {
    assert.equal(queries.query(18), 'category=bench-unknown-18');
  });
  it('emits the same walk as a wrk script', () => {
    const lua = missQueriesLua(queries, '/api/programs/x', 2, { 'X-Api-Key': 'k' });
    assert.match(lua, /wrk\.headers\["X-Api-Key"\] = "k"/);
    assert.match(lua, /\{ "category", \{ "a%20b", "c" \} \}/);
    assert.match(lua, /local size = 18\n/);
    assert.match(lua, /local threads = 2\n/);
  });
});

describe('targets', () => {
  it('judges ratios, ceilings and the hit tolerance', () => {
    assert.equal(atLeastRatio(0.72, 0.7).text, '≥ 70% of ceiling: met');
    assert.equal(atLeastRatio(0.5, 0.7).text, '≥ 70% of ceiling: missed by 20.0 points');
    assert.equal(atMost(12.5, 10, 's').text, '≤ 10 s: missed by 2.5 s (125% of target)');
    assert.equal(atMost(undefined, 10, 's').met, false);
    assert.equal(withinBelow(95, 100, 0.1, 'unfiltered').met, true);
    assert.equal(withinBelow(120, 100, 0.1, 'unfiltered').met, true);
    assert.equal(withinBelow(85, 100, 0.1, 'unfiltered').met, false);
  });
});

describe('renderRouteTable', () => {
  const figures = (route: RouteFigures['route'], mode: RouteFigures['mode'], rps: number): RouteFigures => ({
    route, mode, path: '/p', rps: { median: rps, min: rps - 10, max: rps + 10 }, p50Ms: 1, p99Ms: 4, p99WorstMs: 6, p999Ms: 9, bytesPerResponse: 100, cpuUsPerRequest: rps === 10000 ? { median: 50, min: 48, max: 53 } : { median: 80, min: 77, max: 91 }, cpuRounds: [], non2xx: 0, errors: 0,
  });
  it('puts each gateway beside its ceiling with the ratio, its targets and the spread of req/s and CPU per request', () => {
    const rows = renderRouteTable({ routes: [figures('unfiltered', 'gateway', 8000), figures('unfiltered', 'ceiling', 10000), figures('filtered-hit', 'gateway', 7000)] });
    assert.equal(rows.length, 2 + 3);
    assert.match(rows[2] ?? '', /^\| unfiltered \| gateway \| 8,000 \| 7,990–8,010 \| 1\.00 \| 4\.00 \(6\.00\) \| 9\.00 \| 80% \| 80 \| 77–91 \| 63% \| 100 \| ✅ ≥ 70% of ceiling: met; ✅ ≤ 5 ms p99: met \|$/);
    assert.match(rows[3] ?? '', /^\| unfiltered \| ceiling \| 10,000 .* \| — \| 50 \| 48–53 \| — \| 100 \| — \|$/);
    assert.match(rows[4] ?? '', /❌ within 10% of unfiltered: missed/);
  });
});

describe('renderCpuSplit', () => {
  const figures = (route: RouteFigures['route'], mode: RouteFigures['mode'], user: number, system: number): RouteFigures => ({
    route, mode, path: '/p', rps: { median: 1, min: 1, max: 1 }, p50Ms: 1, p99Ms: 4, p99WorstMs: 6, p999Ms: 9, bytesPerResponse: 100,
    cpuUsPerRequest: { median: user + system, min: user + system, max: user + system }, cpuRounds: [], non2xx: 0, errors: 0,
    userUsPerRequest: { median: user, min: user - 1, max: user + 2 }, systemUsPerRequest: { median: system, min: system, max: system + 1 },
  });
  it('prints nothing when no figure carries the split', () => {
    const { userUsPerRequest: _user, systemUsPerRequest: _system, ...without } = figures('unfiltered', 'gateway', 20, 10);
    assert.deepEqual(renderCpuSplit([without]), []);
  });
  it('gives user and kernel time apart, each against the same-headers ceiling\'s', () => {
    const rows = renderCpuSplit([figures('unfiltered', 'gateway', 20, 10), figures('unfiltered', 'ceiling', 8, 6), figures('unfiltered', 'ceiling, same headers', 10, 8)]);
    assert.equal(rows.length, 2 + 3);
    assert.match(rows[0] ?? '', /user, ceiling, same headers \/ server \| kernel, ceiling, same headers \/ server \|$/);
    assert.equal(rows[2], '| unfiltered | gateway | 20.0 | 19.0–22.0 | 10.0 | 10.0–11.0 | 50% | 80% |');
    assert.equal(rows[4], '| unfiltered | ceiling, same headers | 10.0 | 9.0–12.0 | 8.0 | 8.0–9.0 | — | — |');
  });
});

describe('renderCeilingRatios', () => {
  const figures = (route: RouteFigures['route'], mode: RouteFigures['mode'], rps: number, cpuUsPerRequest: number, p99Ms = 4): RouteFigures => ({
    route, mode, path: '/p', rps: { median: rps, min: rps, max: rps }, p50Ms: 1, p99Ms, p99WorstMs: 6, p999Ms: 9, bytesPerResponse: 100, cpuUsPerRequest: { median: cpuUsPerRequest, min: cpuUsPerRequest, max: cpuUsPerRequest }, cpuRounds: [cpuUsPerRequest], non2xx: 0, errors: 0,
  });
  it('prints nothing without a same-headers ceiling', () => {
    assert.deepEqual(renderCeilingRatios({ routes: [figures('unfiltered', 'gateway', 8000, 80), figures('unfiltered', 'ceiling', 10000, 40)] }), []);
  });
  it('gives each gateway its ratio to both ceilings and its p99 over the same-headers ceiling\'s, with issues 15 and 35\'s targets', () => {
    const rows = renderCeilingRatios({ routes: [
      figures('unfiltered', 'gateway', 6000, 80, 6), figures('unfiltered', 'ceiling', 10000, 40), figures('unfiltered', 'ceiling, same headers', 7000, 50),
      figures('unfiltered', 'gateway --redis', 4000, 100), figures('detail', 'gateway', 5000, 60), figures('detail', 'ceiling', 10000, 30),
      figures('sample (gzip)', 'gateway', 5000, 60, 7), figures('sample (gzip)', 'ceiling, same headers', 6000, 50, 4),
      figures('changes', 'gateway', 5000, 60, 8), figures('changes', 'ceiling, same headers', 6000, 50, 4),
    ] });
    assert.equal(rows.length, 2 + 5);
    assert.equal(rows[2], '| unfiltered | gateway | 60% | 86% | 50% | 63% | 63% | 1.50× | ✅ ≥ 80% of same-headers ceiling: met; ✅ ≥ 60% of 2-header ceiling: met; ❌ ≥ 80% by CPU in every round: missed by 17.5 points; ✅ ≤ 1.5 × p99: met |');
    assert.equal(rows[3], '| unfiltered | gateway --redis | 40% | 57% | 40% | 50% | 50% | 1.00× | ❌ ≥ 50% of 2-header ceiling: missed by 10.0 points |');
    assert.equal(rows[4], '| detail | gateway | 50% | — | 50% | — | — | — | — |');
    assert.equal(rows[5], '| sample (gzip) | gateway | — | 83% | — | 83% | 83% | 1.75× | ❌ ≤ 1.5 × p99: missed by 0.25 × p99 (117% of target) |');
    assert.equal(rows[6], '| changes | gateway | — | 83% | — | 83% | 83% | 2.00× | — |', 'the tail target covers the collection, detail and sample only');
  });
});

describe('worstRoundShare', () => {
  it('pairs the gateway\'s rounds with the ceiling\'s, round by round, and gives the lowest share, skipping a round not measured', () => {
    assert.equal(worstRoundShare({ cpuRounds: [20, 25, 20, Number.NaN] }, { cpuRounds: [16, 16, 18, 10] }), 0.64);
    assert.ok(Number.isNaN(worstRoundShare({ cpuRounds: [] }, { cpuRounds: [16] })));
  });
});

describe('renderTailSpread', () => {
  const figures = (route: RouteFigures['route'], mode: RouteFigures['mode'], p99Rounds?: number[]): RouteFigures => ({
    route, mode, path: '/p', rps: { median: 1, min: 1, max: 1 }, p50Ms: 1, p99Ms: 4, p99WorstMs: 6, p999Ms: 9, bytesPerResponse: 100, cpuUsPerRequest: { median: 1, min: 1, max: 1 }, cpuRounds: [1], non2xx: 0, errors: 0,
    ...(p99Rounds === undefined ? {} : { p99Rounds }),
  });
  it('prints nothing for figures made without rounds', () => {
    assert.deepEqual(renderTailSpread([figures('unfiltered', 'gateway'), figures('unfiltered', 'ceiling')]), []);
  });
  it('pairs each gateway round\'s p99 with the same-headers ceiling\'s same round, with the spread and the 1.5× target on the routes it covers', () => {
    const rows = renderTailSpread([
      figures('unfiltered', 'gateway', [3, 6, 4, 2, 5]), figures('unfiltered', 'ceiling', [1, 1, 1, 1, 1]), figures('unfiltered', 'ceiling, same headers', [2, 3, 2, 2, 2]),
      figures('changes', 'gateway', [3, 3]), figures('changes', 'ceiling, same headers', [2, 2]),
    ]);
    assert.equal(rows.length, 2 + 2);
    assert.equal(rows[2], '| unfiltered | gateway | 4.00 (2.00–6.00) | 2.00 (2.00–3.00) | 2.00× (1.00–2.50×) | ❌ ≤ 1.5 × p99: missed by 0.50 × p99 (133% of target) |');
    assert.equal(rows[3], '| changes | gateway | 3.00 (3.00–3.00) | 2.00 (2.00–2.00) | 1.50× (1.50–1.50×) | — |');
  });
  it('skips a round either side did not measure', () => {
    assert.deepEqual(pairedRatios([2, Number.NaN, 3], [1, 1, Number.NaN]), { median: 2, min: 2, max: 2 });
    assert.ok(Number.isNaN(pairedRatios([], [1]).median));
  });
});

describe('replayableHead', () => {
  it('keeps every header the gateway set, in order, and leaves Date, Connection and Keep-Alive to node:http', () => {
    const head = replayableHead(['X-Request-ID', 'abc', 'RateLimit', '"minute";r=9;t=54', 'Content-Length', '12', 'Date', 'Tue, 24 Nov 2026 14:29:06 GMT', 'Connection', 'keep-alive', 'Keep-Alive', 'timeout=5, max=1000']);
    assert.deepEqual(head, { headers: ['X-Request-ID', 'abc', 'RateLimit', '"minute";r=9;t=54', 'Content-Length', '12'], keepAliveTimeoutMs: 5000, maxRequestsPerSocket: 1000 });
  });
});

describe('replaceSection', () => {
  it('appends a new section and replaces it in place later, keeping the rest', () => {
    const first = replaceSection('# Benchmarks\n\nnotes\n', 'scale-1', 'table one');
    assert.equal(first, '# Benchmarks\n\nnotes\n\n<!-- bench:scale-1:begin -->\ntable one\n<!-- bench:scale-1:end -->\n');
    const second = replaceSection(`${first}\nafter\n`, 'scale-1', 'table two');
    assert.equal(second, '# Benchmarks\n\nnotes\n\n<!-- bench:scale-1:begin -->\ntable two\n<!-- bench:scale-1:end -->\n\nafter\n');
  });
});

describe('summarizeCpuProfile', () => {
  it('folds nodes of one function and ranks by self time', () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0, columnNumber: 4 });
    const top = summarizeCpuProfile({
      nodes: [
        { id: 1, callFrame: frame('handle', 'file:///srv/app/gateway/app.ts') },
        { id: 2, callFrame: frame('handle', 'file:///srv/app/gateway/app.ts') },
        { id: 3, callFrame: frame('dispatch', 'file:///srv/app/node_modules/koa-compose/index.js') },
      ],
      samples: [1, 2, 3, 1],
      timeDeltas: [1000, 1000, 1000, 1000],
    });
    assert.deepEqual(top.map((hot) => [hot.location, hot.selfMs, hot.share]), [
      ['handle (gateway/app.ts:1:5)', 3, 0.75],
      ['dispatch (koa-compose/index.js:1:5)', 1, 0.25],
    ]);
  });
});

describe('parseBenchOptions', () => {
  it('shapes full and quick runs', () => {
    const full = parseBenchOptions([]);
    assert.deepEqual([full.rounds, full.roundSeconds, full.connections, full.profile, full.scale], [3, 10, 64, true, 1]);
    const quick = parseBenchOptions(['--quick', '--scale', '10']);
    assert.deepEqual([quick.rounds, quick.roundSeconds, quick.profile, sectionId(quick)], [2, 2, false, 'scale-10-quick']);
    const links = parseBenchOptions(['--links']);
    assert.deepEqual([links.links, quick.links, sectionId(links)], [true, false, 'links-scale-1']);
    // --links --quick runs the quarter of the URLs alone: a section of its own, not the full run's.
    assert.equal(sectionId(parseBenchOptions(['--links', '--quick'])), 'links-scale-1-quick');
  });
  it('takes the rounds, their length and the routes from the command line', () => {
    const given = parseBenchOptions(['--rounds', '6', '--round-seconds', '4', '--routes', 'detail,unfiltered']);
    assert.deepEqual([given.rounds, given.roundSeconds, given.routes, sectionId(given)], [6, 4, ['unfiltered', 'detail'], 'scale-1']);
    const quick = parseBenchOptions(['--quick', '--rounds', '5']);
    assert.deepEqual([quick.rounds, quick.roundSeconds, quick.routes], [5, 2, undefined]);
    assert.throws(() => parseBenchOptions(['--rounds', '0']), /--rounds must be an integer from 1 to 50, got "0"/);
    assert.throws(() => parseBenchOptions(['--round-seconds', '2.5']), /--round-seconds must be an integer from 1 to 120/);
    assert.throws(() => parseBenchOptions(['--rounds']), /--rounds needs a value/);
    assert.throws(() => parseBenchOptions(['--routes', 'unfiltered,bogus']), /--routes takes route ids from unfiltered, filtered-miss, .*got "bogus"/);
    assert.throws(() => parseBenchOptions(['--routes', 'filtered-miss']), /--routes needs a route besides filtered-miss/);
    assert.throws(() => parseBenchOptions(['--startup', '--routes', 'unfiltered']), /--routes chooses the routes load is driven on/);
  });
  it('refuses an unknown argument or a bad scale', () => {
    assert.throws(() => parseBenchOptions(['--fast']), /unknown argument "--fast"/);
    assert.throws(() => parseBenchOptions(['--scale', '0.5']), /--scale must be an integer/);
  });
  it('runs --reviews alone, at the published scale, in a section of its own', () => {
    assert.deepEqual([parseBenchOptions(['--reviews']).reviews, sectionId(parseBenchOptions(['--reviews'])), sectionId(parseBenchOptions(['--reviews', '--quick']))], [true, 'reviews', 'reviews-quick']);
    assert.throws(() => parseBenchOptions(['--reviews', '--links']), /each run one phase alone/);
    assert.throws(() => parseBenchOptions(['--reviews', '--compare', 'main']), /cannot be combined with --reviews/);
    assert.throws(() => parseBenchOptions(['--reviews', '--scale', '10']), /--reviews runs at the published scale/);
  });
});

describe('hraCommand', () => {
  it('is package.json\'s hra script (the launcher, with the build\'s heap cap), so the bench builds as `npm run hra` does', async () => {
    const { hraCommand, hraHeapCap } = await import('../../../scripts/bench/measure-build.ts');
    const { join } = await import('node:path');
    const command = hraCommand(process.cwd());
    assert.equal(command.at(-1), join(process.cwd(), 'scripts/hra-bin.js'));
    assert.ok(!command.includes('tsx'), 'the launcher chooses compiled or tsx itself');
    assert.deepEqual(hraHeapCap(process.cwd()), command.filter((flag) => /^--max-old-space-size=\d+$/.test(flag)));
    assert.equal(hraHeapCap(process.cwd()).length, 1, 'the build\'s heap cap is among them');
  });

  it('reads an older tree\'s script too, which ran the sources through tsx (--compare)', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { hraCommand } = await import('../../../scripts/bench/measure-build.ts');
    const old = makeTempDir('hra-bench-old-tree-');
    try {
      writeFileSync(join(old, 'package.json'), JSON.stringify({ scripts: { hra: 'node --max-old-space-size=768 --import tsx scripts/hra.ts' } }));
      assert.deepEqual(hraCommand(old), ['--max-old-space-size=768', '--import', 'tsx', join(old, 'scripts/hra.ts')]);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });
});

describe('PRODUCTION_NODE_FLAGS', () => {
  it('are the flags of the documented production command, so the bench measures what operators run', async () => {
    const { readFileSync } = await import('node:fs');
    const { PRODUCTION_NODE_FLAGS, COMPILED_HRA } = await import('../../../scripts/bench/bench-gateway.ts');
    const operators = readFileSync('docs/operators.md', 'utf8');
    assert.ok(operators.includes(`node ${PRODUCTION_NODE_FLAGS.join(' ')} ${COMPILED_HRA} serve `), 'docs/operators.md "Running in production" runs the compiled gateway with these flags');
  });
});
