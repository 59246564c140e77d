/**
 * The route table is the one list of routes (STYLE 23): the router registers exactly its entries, the
 * OpenAPI document describes exactly its entries, and the fast path matches exactly the entries that
 * declare a fast answer. A route added to a copy of the table (one entry, one handler) is served,
 * documented and fast-pathed with nothing else written.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Router from '@koa/router';
import { createRequestListener, type AppDependencies } from '../../../gateway/app.ts';
import { compileRouteMatcher } from '../../../gateway/fast-path/route-matcher.ts';
import type { GatewayState } from '../../../gateway/http/gateway-state.ts';
import { jsonReply } from '../../../gateway/pipeline/json-reply.ts';
import { DEFAULT_LIMITS } from '../../../gateway/limits/limit-table.ts';
import { MemoryRateLimiter } from '../../../gateway/limits/memory-rate-limiter.ts';
import { buildOpenApiDocument } from '../../../gateway/openapi/build-openapi-document.ts';
import { openApiPathOf } from '../../../gateway/openapi/openapi-paths.ts';
import { operationOf, responseCodes, type OpenApiDocument } from '../openapi/openapi-walk.ts';
import { createProgramBodies } from '../../../gateway/programs/program-bodies.ts';
import { createCollectionFilter } from '../../../gateway/programs/filter-collection.ts';
import { splitCacheBudget } from '../../../gateway/programs/cache-budget.ts';
import { registerRoutes } from '../../../gateway/routes/register-routes.ts';
import { createEncodedBodies } from '../../../gateway/encoding/encoded-bodies.ts';
import type { RouteDependencies } from '../../../gateway/routes/route-dependencies.ts';
import type { RouteEntry, RouteTable } from '../../../gateway/routes/route-entry.ts';
import { ROUTE_TABLE } from '../../../gateway/routes/route-table.ts';
import { openSnapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { SnapshotHolder } from '../../../gateway/snapshot/snapshot-holder.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';
import { captureLogger } from '../observability/capture-logger.ts';
import { CursorKeyring } from '../../../gateway/changes/cursor-keyring.ts';

const INFRASTRUCTURE = { sharedRateLimitStorage: false, rateLimitStorageScheme: 'memory', trustedOriginProxyConfigured: false } as const;

function routeDependencies(routes: RouteTable): RouteDependencies {
  const limiter = new MemoryRateLimiter({ limits: DEFAULT_LIMITS, now: Date.now });
  const budget = splitCacheBudget(undefined);
  return {
    access: { lookupKey: () => ({ kind: 'missing' }) as never, limiter, now: Date.now },
    programBodies: createProgramBodies(createCollectionFilter(budget), budget),
    changePageBytes: budget.changePageBytes,
    cursorKeys: new CursorKeyring(Buffer.from('route-table-test-secret-00000001')),
    infrastructure: INFRASTRUCTURE,
    isDraining: () => false,
    openApiDocument: buildOpenApiDocument(routes),
    now: Date.now,
    onSnapshotFault: () => undefined,
  };
}

/** What the router registered: each layer's template and methods, in order. */
function routerLayers(routes: RouteTable): string[] {
  const router = new Router<GatewayState>();
  // Registration only: no request is answered, so no snapshot is ever asked for.
  const encodings = createEncodedBodies({ servedSnapshot: () => assert.fail('no request is answered here'), maxBytes: 1 });
  registerRoutes(router, routes, routeDependencies(routes), encodings);
  return router.stack.map((layer) => `${layer.methods.join(',')} ${layer.path}`);
}

const tableLayers = (routes: RouteTable) => routes.map((route) => `HEAD,${route.methods.join(',')} ${route.path}`);

/** The documented operations: `METHOD path` per operation, in document order. */
function documentedOperations(routes: RouteTable): string[] {
  const paths = (buildOpenApiDocument(routes) as { paths: Record<string, Record<string, unknown>> }).paths;
  return Object.entries(paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
}

const tableOperations = (routes: RouteTable) => routes.flatMap((route) => route.methods.map((method) => `${method} ${openApiPathOf(route.path)}`));

/** A concrete path of a template, with a plain slug or id for each parameter. */
const exampleOf = (template: string) => template.replace(/:city/g, 'alpha').replace(/:programId/g, 'a-roof');

describe('ROUTE_TABLE', () => {
  it('lists each path once', () => {
    const paths = ROUTE_TABLE.map((route) => route.path);
    assert.equal(new Set(paths).size, paths.length);
  });

  it('is what the router registers, in order', () => {
    assert.deepEqual(routerLayers(ROUTE_TABLE), tableLayers(ROUTE_TABLE));
  });

  it('is what the OpenAPI document describes, in order, so no route is served undocumented', () => {
    assert.deepEqual(documentedOperations(ROUTE_TABLE), tableOperations(ROUTE_TABLE));
  });

  it('is the only way routes reach the router: nothing else in gateway/ registers one', () => {
    const files = readdirSync('gateway', { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts')).map((name) => `gateway/${name}`);
    const routerUsers = files.filter((file) => /from '@koa\/router'/.test(readFileSync(file, 'utf8'))).sort();
    assert.deepEqual(routerUsers, ['gateway/app.ts', 'gateway/routes/register-routes.ts']);
    assert.doesNotMatch(readFileSync('gateway/app.ts', 'utf8'), /router\.(get|head|post|put|patch|delete|del|all|register|use)\(/);
  });

  it('declares 503 DATASET_UNAVAILABLE on every route that reads the snapshot: all but liveness, the OpenAPI document and its page', () => {
    const doc = buildOpenApiDocument(ROUTE_TABLE) as OpenApiDocument;
    assert.deepEqual(ROUTE_TABLE.filter((route) => route.snapshotIndependent === true).map((route) => route.path), ['/openapi.json', '/docs', '/healthz']);
    for (const route of ROUTE_TABLE) {
      const declared = operationOf(doc, openApiPathOf(route.path)).responses['503'];
      const codes = declared === undefined ? [] : responseCodes(doc, declared);
      assert.equal(codes.includes('DATASET_UNAVAILABLE'), route.snapshotIndependent !== true, route.path);
    }
  });

  it('gives every licensed route a scope rule and no other route one', () => {
    for (const route of ROUTE_TABLE) assert.equal(route.scope !== undefined, route.access === 'licensed', route.path);
  });

  it('is what the fast path matches: the routes with a fast answer, literal before template', () => {
    const match = compileRouteMatcher(ROUTE_TABLE.filter((route) => route.fastPath === true));
    for (const route of ROUTE_TABLE) {
      const found = match(exampleOf(route.path));
      assert.equal(found?.route, route.fastPath === true ? route : undefined, route.path);
    }
    assert.equal(match('/api/programs/national')?.route.path, '/api/programs/national');
    assert.deepEqual(match('/api/programs/national/usda-504')?.params, { city: 'national', programId: 'usda-504' });
    // Left to Koa: anything @koa/router would decode, fold or treat as another path.
    for (const path of ['/api/programs/alpha/', '/api/programs/Alpha', '/api/programs/al%70ha', '/API/programs/alpha', '/api/programs//alpha', '/api/programs/alpha/a-roof/extra']) {
      assert.equal(match(path), undefined, path);
    }
  });

  it('remembers the answer per path, frozen, and answers right once the bound starts the table over', () => {
    const fast = ROUTE_TABLE.filter((route) => route.fastPath === true);
    const match = compileRouteMatcher(fast, { rememberPaths: 4 });
    const first = match('/api/programs/alpha/a-roof');
    assert.equal(match('/api/programs/alpha/a-roof'), first, 'the same answer object for a path asked again');
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first?.params));
    assert.throws(() => {
      (first?.params as Record<string, string>).city = 'beta';
    }, TypeError);
    // More distinct paths than the bound, twice over, misses among them: every answer is still the path's own.
    const fresh = compileRouteMatcher(fast);
    for (let round = 0; round < 2; round++) {
      for (let index = 0; index < 12; index++) {
        for (const path of [`/api/programs/city-${index}`, `/api/programs/city-${index}/rec-${index}`, `/api/programs/City-${index}`]) {
          assert.deepEqual(match(path), fresh(path), path);
        }
      }
    }
    assert.deepEqual(match('/api/programs/city-3/rec-3')?.params, { city: 'city-3', programId: 'rec-3' });
    assert.equal(match('/api/programs/City-3'), undefined);
  });

  it('refuses to compile a fast-path template whose parameter has no plain pattern', () => {
    const route = { ...ROUTE_TABLE[0]!, path: '/api/things/:thing' } as RouteEntry;
    assert.throws(() => compileRouteMatcher([route]), /no fast-path pattern for parameter :thing/);
  });
});

describe('adding a route: one table entry and one handler', () => {
  // The handler file of the hypothetical route: one plain function, which Koa and the fast path both run.
  const echoBody = (city: string | undefined) => Buffer.from(JSON.stringify({ city }));
  const throwaway: RouteEntry = {
    methods: ['GET'],
    path: '/api/echo/:city',
    access: 'licensed',
    scope: { city: (request) => request.params.city },
    caching: 'licensed',
    handler: () => (request) => jsonReply(echoBody(request.params.city)),
    fastPath: true,
    operation: {
      operationId: 'echoCity',
      tag: 'cities',
      summary: 'Echo a city slug',
      description: 'A route that exists only in this test.',
      parameters: ['City'],
      ok: { description: 'The slug.', schema: { type: 'object' } },
    },
  };
  const routes: RouteTable = [...ROUTE_TABLE, throwaway];
  const servers: Server[] = [];
  const urls: Record<'fast' | 'koa', string> = { fast: '', koa: '' };
  const logs = { fast: captureLogger(), koa: captureLogger() };

  before(async () => {
    const snapshots = new SnapshotHolder(openSnapshot(buildTestSnapshot()));
    for (const mode of ['fast', 'koa'] as const) {
      const deps: AppDependencies = {
        snapshots,
        lookupKey: () => ({ kind: 'valid', key: Object.freeze({ id: 'key_fixed', tier: 'commercial', cities: null, expiresAt: null }) as never }),
        limiter: new MemoryRateLimiter({ limits: DEFAULT_LIMITS, now: Date.now }),
        now: Date.now,
        infrastructure: INFRASTRUCTURE,
        trustProxy: false,
        cursorKeys: new CursorKeyring(Buffer.from('route-table-test-secret-00000001')),
        log: logs[mode].log,
        routes,
      };
      const server = createServer(createRequestListener(deps, { fastPath: mode === 'fast' }));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      urls[mode] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
  });
  after(() => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))));

  it('registers it with the router and documents it', () => {
    assert.deepEqual(routerLayers(routes), tableLayers(routes));
    assert.deepEqual(documentedOperations(routes), tableOperations(routes));
    assert.ok(documentedOperations(routes).includes('GET /api/echo/{city}'));
  });

  it('serves it through Koa, and through the fast path when it declares a fast answer', async () => {
    for (const mode of ['fast', 'koa'] as const) {
      const response = await fetch(`${urls[mode]}/api/echo/alpha`, { headers: { 'X-Api-Key': 'any' } });
      assert.equal(response.status, 200, mode);
      assert.deepEqual(await response.json(), { city: 'alpha' });
      const line = logs[mode].requests().at(-1);
      assert.equal(line?.route, '/api/echo/:city');
      assert.equal(line?.fastPath, mode === 'fast' ? true : undefined, mode);
    }
  });

  it('publishes it in the served /openapi.json', async () => {
    const document = await (await fetch(`${urls.koa}/openapi.json`)).json() as { paths: Record<string, unknown> };
    assert.ok('/api/echo/{city}' in document.paths);
  });
});
