import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { interleavedRounds, type RoundServer } from '../../../scripts/bench/drive-rounds.ts';
import { REDIS_ROUTES, serversForRoute, sharedRouteIds, type PhaseServers } from '../../../scripts/bench/phase-servers.ts';
import { renderCompareReport, renderCompareTable } from '../../../scripts/bench/render-compare.ts';
import { BASE_ROUTE_IDS, type ServerMode } from '../../../scripts/bench/render-report.ts';
import { compareReport, figures, SAME_HEADERS_ROUTES } from './compare-fixtures.ts';

// Issue 25, goal 4: the --redis gateways are driven in the same rounds as the ceilings they are compared
// with (not after them, against ceilings measured earlier), and --compare drives both trees with --redis.

const server = (mode: ServerMode): RoundServer => ({ mode, origin: `http://127.0.0.1/${mode}` });
const order = (servers: readonly RoundServer[], rounds: number) => interleavedRounds(servers, rounds).map(({ round, server: { mode } }) => `${mode} ${round}`);

const single: PhaseServers = {
  gateways: [server('gateway')],
  shared: [server('gateway --redis'), server('gateway --redis --keys postgres')],
  ceilings: [server('ceiling'), server('ceiling, same headers')],
  sharedRoutes: sharedRouteIds(BASE_ROUTE_IDS, REDIS_ROUTES, false),
};

describe('the --redis phase\'s rotation', () => {
  it('puts the shared-storage gateways between the in-memory gateway and both ceilings, round after round', () => {
    assert.deepEqual(order(serversForRoute('unfiltered', single), 2), [
      'gateway 1', 'gateway --redis 1', 'gateway --redis --keys postgres 1', 'ceiling 1', 'ceiling, same headers 1',
      'gateway 2', 'gateway --redis 2', 'gateway --redis --keys postgres 2', 'ceiling 2', 'ceiling, same headers 2',
    ]);
  });
  it('drives them on the licensed routes it repeats only, and on the unfiltered one alone in a quick run', () => {
    assert.deepEqual([...sharedRouteIds(BASE_ROUTE_IDS, REDIS_ROUTES, false)], ['unfiltered', 'filtered-miss', 'detail']);
    assert.deepEqual([...sharedRouteIds(BASE_ROUTE_IDS, REDIS_ROUTES, true)], ['unfiltered']);
    assert.deepEqual(serversForRoute('sample', single).map(({ mode }) => mode), ['gateway', 'ceiling', 'ceiling, same headers']);
    assert.deepEqual(serversForRoute('unfiltered (br)', single).map(({ mode }) => mode), ['gateway', 'ceiling', 'ceiling, same headers']);
    const quick = { ...single, sharedRoutes: sharedRouteIds(BASE_ROUTE_IDS, REDIS_ROUTES, true) };
    assert.deepEqual(serversForRoute('detail', quick).map(({ mode }) => mode), ['gateway', 'ceiling', 'ceiling, same headers']);
  });
  it('is the plain rotation under --no-redis (no shared gateway started)', () => {
    assert.deepEqual(serversForRoute('unfiltered', { ...single, shared: [] }).map(({ mode }) => mode), ['gateway', 'ceiling', 'ceiling, same headers']);
  });
});

describe('a comparison\'s rotation with --redis', () => {
  it('drives A, B, A --redis, B --redis and both ceilings on the unfiltered route; A, B and the ceilings elsewhere', () => {
    const compare: PhaseServers = {
      gateways: [server('gateway A'), server('gateway B')],
      shared: [server('gateway A --redis'), server('gateway B --redis')],
      ceilings: [server('ceiling'), server('ceiling, same headers')],
      sharedRoutes: sharedRouteIds(BASE_ROUTE_IDS, REDIS_ROUTES, true),
    };
    assert.deepEqual(order(serversForRoute('unfiltered', compare), 2), [
      'gateway A 1', 'gateway B 1', 'gateway A --redis 1', 'gateway B --redis 1', 'ceiling 1', 'ceiling, same headers 1',
      'gateway A 2', 'gateway B 2', 'gateway A --redis 2', 'gateway B --redis 2', 'ceiling 2', 'ceiling, same headers 2',
    ]);
    assert.deepEqual(serversForRoute('detail', compare).map(({ mode }) => mode), ['gateway A', 'gateway B', 'ceiling', 'ceiling, same headers']);
  });
});

// The comparison fixture of compare.test.ts, with both trees' --redis gateways on the unfiltered route.
const ROUTES = [
  ...SAME_HEADERS_ROUTES,
  figures('unfiltered', 'gateway A --redis', [2000, 1900, 2100], [160, 150, 170]),
  figures('unfiltered', 'gateway B --redis', [3000, 2800, 3300], [80, 75, 90], 4),
];

describe('renderCompareTable with --redis', () => {
  it('adds a `<route> --redis` row under the route: both trees with --redis against the same ceilings, by req/s', () => {
    assert.deepEqual(renderCompareTable(ROUTES, 'rps').slice(2), [
      '| unfiltered | 4,000 (3,900–4,200) | 6,000 (5,800–6,100) | 8,000 (7,500–8,100) | 7,500 (7,000–7,600) | 1.50× | 50% | 75% | 53% | 80% |',
      '| unfiltered --redis ⚠ non-2xx or socket errors | 2,000 (1,900–2,100) | 3,000 (2,800–3,300) | 8,000 (7,500–8,100) | 7,500 (7,000–7,600) | 1.50× | 25% | 38% | 27% | 40% |',
      '| detail ⚠ non-2xx or socket errors | 5,000 (5,000–5,000) | 5,000 (4,000–5,500) | 10,000 (9,000–11,000) | 9,000 (8,000–9,500) | 1.00× | 50% | 50% | 56% | 56% |',
    ]);
  });
  it('reads its CPU per request as ceiling CPU / gateway CPU, as the other rows', () => {
    assert.equal(renderCompareTable(ROUTES, 'cpu')[3], '| unfiltered --redis ⚠ non-2xx or socket errors | 160 (150–170) | 80 (75–90) | 40 (39–42) | 45 (44–47) | 0.50× | 25% | 50% | 28% | 56% | 52% |', 'worst round of B --redis: 47 µs against 90');
  });
  it('names the --redis rotation in the load line, and leaves it out when no --redis row was measured', () => {
    const report = compareReport(ROUTES);
    assert.match(renderCompareReport(report), /interleaved A, B, ceiling, same-headers ceiling, A, B, ceiling, same-headers ceiling… \(on unfiltered: A, B, A --redis, B --redis, ceiling, same-headers ceiling, …\) after a warm-up/);
    const plain = renderCompareReport({ ...report, routes: ROUTES.filter(({ mode }) => !mode.endsWith('--redis')) });
    assert.match(plain, /same-headers ceiling… after a warm-up/);
    assert.doesNotMatch(plain, /--redis/);
  });
});
