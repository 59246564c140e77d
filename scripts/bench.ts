/**
 * `npm run bench`: builds the scale corpus, serves it with the real gateway (embedded defaults, and beside
 * it `--redis` and `--redis --keys postgres://` on the licensed routes, in the same rotation), drives every
 * route against bare node:http ceilings serving the same bytes, and writes the
 * table to stdout and to this configuration's section of BENCHMARKS.md. Progress goes to stderr.
 * `--links` runs only the link-checker phase instead (scripts/bench/bench-links.ts), `--startup` only the
 * start-up phase (scripts/bench/bench-startup.ts), `--hostile-pages` only the hostile-pages phase
 * (scripts/bench/bench-hostile-pages.ts), `--reviews` only the model reviewer's (scripts/bench/bench-reviews.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { FUNDING_STATUSES, INCOME_TIERS } from '../build/contract/vocab-enums.ts';
import { postgresServerSkip, startPostgresServer, type PostgresServer } from '../test/support/postgres-server.ts';
import { startRedisServer, redisServerSkip, type RedisServer } from '../test/support/redis-server.ts';
import { COMPILED_CEILING, fetchAnswer, PRODUCTION_NODE_FLAGS, startBenchGateway, type BenchGateway } from './bench/bench-gateway.ts';
import { drivesLoad, parseBenchOptions, sectionId, type BenchOptions } from './bench/bench-options.ts';
import { benchHostilePages } from './bench/bench-hostile-pages.ts';
import { benchLinks } from './bench/bench-links.ts';
import { benchReviews } from './bench/bench-reviews.ts';
import { benchStartup } from './bench/bench-startup.ts';
import { residentBytes, spawnServer, type BenchProcess } from './bench/bench-process.ts';
import type { CapturedHeads, CeilingRoutes } from './bench/ceiling-server.ts';
import { replayableHead } from './bench/replayable-head.ts';
import { describeMachine } from './bench/describe-machine.ts';
import { driveOnce, driveRounds, type BenchRoute, type RoundServer, type RoundState } from './bench/drive-rounds.ts';
import { pickLoadGenerator, type LoadGenerator } from './bench/load-generator.ts';
import { materializeTree } from './bench/compare-tree.ts';
import { hraCommand, measureBuild, run, runWithPeakRss, type BuildFigures } from './bench/measure-build.ts';
import { COMPARE_MODES, renderCompareReport, type CompareReport } from './bench/render-compare.ts';
import { createMissQueries } from './bench/miss-queries.ts';
import { REDIS_ROUTES, serversForRoute, sharedRouteIds, type PhaseServers } from './bench/phase-servers.ts';
import { CODINGS, COMPRESSED_ROUTE_IDS, compressedRouteId, isCeiling, renderReport, replaceSection, type BenchReport, type GatewayFigures, type ProfileSummary, type RouteFigures, type RunSetup } from './bench/render-report.ts';
import { plural } from './plural.ts';
import { summarizeCpuProfile, type CpuProfile } from './bench/summarize-cpu-profile.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const progress = (line: string) => process.stderr.write(`${line}\n`);
/** Limits far above anything a bench can send: every request is metered, none is refused. */
const RAISED_LIMITS = { tiers: { commercial: { perMinute: 1_000_000_000, perDay: 1_000_000_000_000 } }, public: { perMinute: 1_000_000_000 } };
/** The Redis database of each tree's `--redis` gateway under `--compare`: one server, windows kept apart. */
const REDIS_DATABASE = { A: 1, B: 2 } as const;

async function main(): Promise<void> {
  const began = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  const options = parseBenchOptions(process.argv.slice(2));
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const threads = availableParallelism() <= 2 ? 1 : 2;
  // Refuse before compiling or building anything when the run drives load: without wrk there is nothing
  // worth measuring. The link and start-up phases send no load, so they run without it.
  const load = drivesLoad(options) ? pickLoadGenerator(threads) : undefined;
  const work = mkdtempSync(join(tmpdir(), 'hra-bench-'));
  const cleanup: Array<() => Promise<void>> = [];
  try {
    progress(`bench: ${command} in ${work}`);
    if (options.hostilePages) {
      writeSection(options, await benchHostilePages(root, work, command, progress));
      progress(`bench: wrote ${options.out} section ${sectionId(options)}`);
      return;
    }
    const compileStarted = performance.now();
    await run('npm', ['run', '--silent', 'compile'], root);
    const compileSeconds = (performance.now() - compileStarted) / 1000;
    progress(`bench: npm run compile ${compileSeconds.toFixed(1)} s`);
    if (options.links) {
      // --links: the link checker's phase only, compiled as an operator runs it (no TypeScript loader in the run
      // or its extraction children, no launcher: hra-bin.js runs dist/js in its own process); it drives no HTTP load.
      writeSection(options, await benchLinks(root, work, options.scale, command, progress, options.quick, options.rounds));
      progress(`bench: wrote ${options.out} section ${sectionId(options)}`);
      return;
    }
    if (options.reviews) {
      // --reviews: the model reviewer's phase only, compiled as an operator runs it; it drives no HTTP load.
      writeSection(options, await benchReviews(root, work, options.quick, command, progress));
      progress(`bench: wrote ${options.out} section ${sectionId(options)} in ${((performance.now() - began) / 1000).toFixed(0)} s`);
      return;
    }
    const build = await measureBuild(root, join(work, 'corpus'), join(work, 'dist'), options.scale, progress);
    progress(`bench: build ${build.buildSeconds.toFixed(1)} s, peak RSS ${((build.peakRssBytes ?? 0) / 1e6).toFixed(0)} MB`);
    const dataset = join(work, 'dist', 'current.sqlite');
    const keys = join(work, 'keys.sqlite');
    const limits = join(work, 'limits.json');
    writeFileSync(limits, JSON.stringify(RAISED_LIMITS));
    const apiKey = await createBenchKey(keys);
    const routes = benchRoutes(dataset, join(work, 'corpus'), apiKey, options.routes);
    // The first route without a varying query: the probe of start-up, the same-headers check and the profile.
    const unfiltered = routes.find((route) => route.miss === undefined) as BenchRoute;
    const state: RoundState = { missOffset: 0, peakRss: new Map() };
    const figures: RouteFigures[] = [];
    const gateways: GatewayFigures[] = [];
    const notes: string[] = [];
    const drive = { rounds: options.rounds, seconds: options.roundSeconds, connections: options.connections };

    if (options.startup) {
      const startupContext = { root, work, options, command, began, loadAtStart, build, corpus: join(work, 'corpus'), dataset, keys, limits, apiKey, probePath: unfiltered.path, createKey: createBenchKey, cleanup, progress };
      writeSection(options, await benchStartup(startupContext));
      progress(`bench: wrote ${options.out} section ${sectionId(options)} in ${((performance.now() - began) / 1000).toFixed(0)} s`);
      return;
    }
    // drivesLoad holds from here on: every mode that does not has returned above.
    if (load === undefined) throw new Error('no load generator for a phase that drives load');

    if (options.compare !== undefined) {
      // Before/after in one run: the ref's gateway (A), this tree's (B) and the ceiling, round by round.
      const context = { work, options, load, command, began, loadAtStart, build, dataset, keys, limits, apiKey, drive, state, cleanup, compileSeconds };
      writeSection(options, await compareTrees(options.compare, routes, context));
      progress(`bench: wrote ${options.out} section ${sectionId(options)} in ${((performance.now() - began) / 1000).toFixed(0)} s`);
      return;
    }

    // Phase 1: the embedded defaults against the ceiling, alternating.
    const memory = await startBenchGateway({ root, dataset, keys, limits, logFile: join(work, 'gateway.log') }, unfiltered.path, apiKey);
    cleanup.push(() => memory.process.stop());
    progress(`bench: gateway at ${memory.process.url}, first licensed 200 after ${memory.firstResponseMs.toFixed(0)} ms`);
    const ceiling = await startCeiling(work, memory, routes, apiKey, state, false);
    cleanup.push(() => ceiling.stop());
    const sameHeadersCeiling = await startCeiling(work, memory, routes, apiKey, state, true);
    cleanup.push(() => sameHeadersCeiling.stop());
    const gatewayServer: RoundServer = { mode: 'gateway', origin: memory.process.url, pid: memory.process.pid };
    const ceilingServer: RoundServer = { mode: 'ceiling', origin: ceiling.url, pid: ceiling.pid };
    const sameHeadersServer: RoundServer = { mode: 'ceiling, same headers', origin: sameHeadersCeiling.url, pid: sameHeadersCeiling.pid };
    const restRss = await settledRss(memory.process.pid);

    // The gateways with shared storage run beside the in-memory one and join its rotation on the licensed
    // routes of REDIS_ROUTES: --redis (windows in a real Redis), and --redis --keys postgres (keys in a
    // real PostgreSQL too: the configuration of several gateway hosts), each against the same rounds' ceilings.
    const shared: Array<{ mode: SharedMode; server: RoundServer; gateway: BenchGateway; restRss: number | undefined }> = [];
    const startShared = async (mode: SharedMode, redisUrl: string, keyStore: string, key: string): Promise<void> => {
      const gateway = await startBenchGateway({ root, dataset, keys: keyStore, limits, logFile: join(work, `gateway-${shared.length + 1}.log`), redisUrl }, unfiltered.path, key);
      cleanup.push(() => gateway.process.stop());
      shared.push({ mode, server: { mode, origin: gateway.process.url, pid: gateway.process.pid, apiKey: key }, gateway, restRss: await settledRss(gateway.process.pid) });
    };
    const skip = options.redis ? redisServerSkip() : 'skipped (--no-redis)';
    let redis: RedisServer | undefined;
    let postgres: PostgresServer | undefined;
    if (skip === false) {
      redis = await startRedisServer();
      cleanup.push(() => (redis as RedisServer).stop());
      await startShared('gateway --redis', redis.url, keys, apiKey);
      notes.push(`\`--redis\` rows: the licensed routes${options.quick ? ' (--quick: unfiltered only)' : ''} against a redis-server the bench started on loopback, driven in the same rotation as the in-memory gateway and both ceilings (gateway, gateway --redis${options.postgres && postgresServerSkip() === false ? ', gateway --redis --keys postgres' : ''}, ceiling, same-headers ceiling, round after round); their ratios are to those ceilings. redis-server shares the machine's CPUs and is not counted in the gateway's CPU per request.`);
      const postgresSkip = options.postgres ? postgresServerSkip() : 'skipped (--no-postgres)';
      if (postgresSkip === false) {
        postgres = await startPostgresServer();
        cleanup.push(() => (postgres as PostgresServer).stop());
        const url = await postgres.createDatabase();
        await startShared('gateway --redis --keys postgres', redis.url, url, await createBenchKey(url));
        notes.push('`--redis --keys postgres` rows: the same routes with the key store in a PostgreSQL cluster the bench started on loopback (initdb in a temporary directory, fsync off); keys are cached in the gateway, so in steady state a request makes no database round trip.');
      } else {
        notes.push(`\`--keys postgres\` phase not run: ${postgresSkip}.`);
      }
    } else {
      notes.push(`\`--redis\` phase not run: ${skip}.`);
    }
    const phase: PhaseServers = {
      gateways: [gatewayServer],
      shared: shared.map((entry) => entry.server),
      ceilings: [ceilingServer, sameHeadersServer],
      sharedRoutes: sharedRouteIds(routes.map((route) => route.id), REDIS_ROUTES, options.quick),
    };
    await warmUp(load, routes, [gatewayServer, ceilingServer, sameHeadersServer], options, state);
    if (phase.shared.length > 0) await warmUp(load, routes.filter((route) => phase.sharedRoutes.has(route.id)), phase.shared, options, state);
    for (const route of routes) figures.push(...(await driveRounds(load, route, serversForRoute(route.id, phase), drive, state, progress)));
    gateways.push(gatewayFigures('gateway', memory, restRss, state));
    for (const entry of shared) {
      gateways.push(gatewayFigures(entry.mode, entry.gateway, entry.restRss, state));
      await entry.gateway.process.stop();
    }
    await postgres?.stop();
    await redis?.stop();
    const held = await rssWithCompressedForms(dataset, memory.process.url, memory.process.pid, apiKey);
    notes.push(`RSS with compressed forms held: ${held.rss === undefined ? 'not measured' : `${(held.rss / 1e6).toFixed(0)} MB`} (VmRSS after every one of ${held.collections} collections was asked for in br and in gzip, twice, ${held.seconds.toFixed(1)} s, so the gateway holds every form its share of \`--cache-mb\` admits; at rest after one request per route: ${restRss === undefined ? '?' : `${(restRss / 1e6).toFixed(0)} MB`}).`);
    await memory.process.stop();

    let profile: ProfileSummary | undefined;
    if (options.profile) profile = await profileGateway(work, { root, dataset, keys, limits, logFile: join(work, 'gateway-profile.log') }, unfiltered, apiKey, load, options, state);
    await ceiling.stop();
    await sameHeadersCeiling.stop();

    notes.push(`the gateway runs as production does, compiled to JavaScript (\`npm run compile\`, ${compileSeconds.toFixed(1)} s, before the build) and started with plain \`node dist/js/scripts/hra.js serve\`.`);
    notes.push(...routeNotes(routes, load.name));
    notes.push(`machine load average (1 min): ${loadAtStart.toFixed(1)} at start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end, on ${availableParallelism()} CPUs: other work on a shared machine moves absolute figures; the ratios are measured side by side to survive it.`);
    const report: BenchReport = {
      ...runSetup(command, options, load),
      build,
      routes: figures,
      gateways,
      notes,
      ...(profile ? { profile } : {}),
      elapsedSeconds: (performance.now() - began) / 1000,
    };
    writeSection(options, renderReport(report));
    progress(`bench: wrote ${options.out} section ${sectionId(options)} in ${report.elapsedSeconds.toFixed(0)} s`);
    // Not a harness failure: a gateway that answers 503 under load (Redis too slow: fail closed) is a finding.
    const dirty = figures.filter((figure) => figure.non2xx + figure.errors > 0);
    if (dirty.length > 0) progress(`bench: warning: non-2xx responses or socket errors on ${dirty.map((figure) => `${figure.route} (${figure.mode})`).join(', ')} (marked ⚠ in the table)`);
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

/** The heading facts of a report, taken as it is written. */
function runSetup(command: string, options: BenchOptions, load: LoadGenerator): RunSetup {
  return {
    command,
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: describeMachine(),
    loadTool: load.name,
    connections: options.connections,
    rounds: options.rounds,
    roundSeconds: options.roundSeconds,
    scale: options.scale,
  };
}

/** What a comparison shares with the rest of the run: this tree's compiled build, key and limits. */
interface CompareContext {
  work: string;
  options: BenchOptions;
  load: LoadGenerator;
  command: string;
  began: number;
  loadAtStart: number;
  build: BuildFigures;
  dataset: string;
  keys: string;
  limits: string;
  apiKey: string;
  drive: { rounds: number; seconds: number; connections: number };
  state: RoundState;
  cleanup: Array<() => Promise<void>>;
  compileSeconds: number;
}

/**
 * `--compare <ref>`: extracts and compiles the ref's tree, builds this run's corpus with its own `hra build`,
 * serves both snapshots with their own gateways (each with a key from its own key store) beside both
 * ceilings of this tree's bytes, and drives every route in COMPARE_MODES' order, round after round.
 */
async function compareTrees(ref: string, routes: readonly BenchRoute[], context: CompareContext): Promise<string> {
  const { work, options, load, state, cleanup, limits } = context;
  // B is this tree as the run began: read before the minutes of the run, in which it may change.
  const head = (await run('git', ['rev-parse', 'HEAD'], root)).stdout.trim();
  const dirty = (await run('git', ['status', '--porcelain'], root)).stdout.trim() !== '';
  const tree = await materializeTree(root, ref, progress);
  cleanup.push(async () => tree.remove());
  const distA = join(work, 'dist-a');
  // The same corpus, built by the ref's own build: revisions may differ when the build changed.
  const buildA = await runWithPeakRss([...hraCommand(tree.root), 'build', '--corpus', join(work, 'corpus'), '--out', distA], tree.root, progress);
  progress(`bench: ${ref} build ${buildA.seconds.toFixed(1)} s`);
  const keysA = join(work, 'keys-a.sqlite');
  const apiKeyA = await createBenchKey(keysA, tree.root);
  const unfiltered = routes.find((route) => route.miss === undefined) as BenchRoute;
  const gatewayA = await startBenchGateway({ root: tree.root, dataset: join(distA, 'current.sqlite'), keys: keysA, limits, logFile: join(work, 'gateway-a.log') }, unfiltered.path, apiKeyA);
  cleanup.push(() => gatewayA.process.stop());
  const gatewayB = await startBenchGateway({ root, dataset: context.dataset, keys: context.keys, limits, logFile: join(work, 'gateway-b.log') }, unfiltered.path, context.apiKey);
  cleanup.push(() => gatewayB.process.stop());
  const ceiling = await startCeiling(work, gatewayB, routes, context.apiKey, state, false);
  cleanup.push(() => ceiling.stop());
  const sameHeadersCeiling = await startCeiling(work, gatewayB, routes, context.apiKey, state, true);
  cleanup.push(() => sameHeadersCeiling.stop());
  progress(`bench: A (${ref}) at ${gatewayA.process.url}, B (this tree) at ${gatewayB.process.url}, ceilings at ${ceiling.url} and ${sameHeadersCeiling.url} (same headers)`);
  const byMode: Record<(typeof COMPARE_MODES)[number], RoundServer> = {
    'gateway A': { mode: 'gateway A', origin: gatewayA.process.url, pid: gatewayA.process.pid, apiKey: apiKeyA },
    'gateway B': { mode: 'gateway B', origin: gatewayB.process.url, pid: gatewayB.process.pid, apiKey: context.apiKey },
    ceiling: { mode: 'ceiling', origin: ceiling.url, pid: ceiling.pid },
    'ceiling, same headers': { mode: 'ceiling, same headers', origin: sameHeadersCeiling.url, pid: sameHeadersCeiling.pid },
  };
  // Both trees with --redis against one redis-server, a database each (`/1` for A, `/2` for B): the
  // limiter names its keys `hra:rl:k:{<hash of the key id>}:…` under a fixed prefix, so separate databases,
  // not only separate key stores, keep one tree's windows out of the other's.
  const redisSkip = options.redis ? redisServerSkip() : 'skipped (--no-redis)';
  const redisNotes: string[] = [];
  const redisServers: RoundServer[] = [];
  const redisGateways: BenchGateway[] = [];
  let redis: RedisServer | undefined;
  if (redisSkip === false) {
    redis = await startRedisServer();
    cleanup.push(() => (redis as RedisServer).stop());
    const redisA = await startBenchGateway({ root: tree.root, dataset: join(distA, 'current.sqlite'), keys: keysA, limits, logFile: join(work, 'gateway-a-redis.log'), redisUrl: `${redis.url}/${REDIS_DATABASE.A}` }, unfiltered.path, apiKeyA);
    cleanup.push(() => redisA.process.stop());
    const redisB = await startBenchGateway({ root, dataset: context.dataset, keys: context.keys, limits, logFile: join(work, 'gateway-b-redis.log'), redisUrl: `${redis.url}/${REDIS_DATABASE.B}` }, unfiltered.path, context.apiKey);
    cleanup.push(() => redisB.process.stop());
    redisGateways.push(redisA, redisB);
    redisServers.push(
      { mode: 'gateway A --redis', origin: redisA.process.url, pid: redisA.process.pid, apiKey: apiKeyA },
      { mode: 'gateway B --redis', origin: redisB.process.url, pid: redisB.process.pid, apiKey: context.apiKey },
    );
    progress(`bench: A --redis at ${redisA.process.url} (database ${REDIS_DATABASE.A}), B --redis at ${redisB.process.url} (database ${REDIS_DATABASE.B}), redis-server at ${redis.url}`);
  } else {
    redisNotes.push(`\`--redis\` rows not measured: ${redisSkip}.`);
  }
  const phase: PhaseServers = {
    gateways: [byMode['gateway A'], byMode['gateway B']],
    shared: redisServers,
    ceilings: [byMode.ceiling, byMode['ceiling, same headers']],
    sharedRoutes: sharedRouteIds(routes.map((route) => route.id), REDIS_ROUTES, options.quick),
  };
  const servers = COMPARE_MODES.map((mode) => byMode[mode]);
  await warmUp(load, routes, servers, options, state);
  if (redisServers.length > 0) await warmUp(load, routes.filter((route) => phase.sharedRoutes.has(route.id)), redisServers, options, state);
  const figures: RouteFigures[] = [];
  let keyspace = '';
  for (const route of routes) {
    figures.push(...(await driveRounds(load, route, serversForRoute(route.id, phase), context.drive, state, progress)));
    // Read right after the --redis rounds: a minute window's key expires a minute after the window ends.
    if (redis !== undefined && phase.sharedRoutes.has(route.id)) keyspace = (await run('redis-cli', ['-p', String(redis.port), 'info', 'keyspace'], root)).stdout;
  }
  if (redis !== undefined) {
    const keysIn = (database: number) => plural(Number(/keys=(\d+)/.exec(keyspace.split('\n').find((line) => line.startsWith(`db${database}:`)) ?? '')?.[1] ?? '0'), 'window key');
    redisNotes.push(`\`--redis\` rows: both trees' gateways with \`--redis\` against one redis-server the bench started on loopback, A in database ${REDIS_DATABASE.A} and B in database ${REDIS_DATABASE.B} (each with its own key store and key), driven on ${[...phase.sharedRoutes].join(', ')} in the same rounds as A, B and both ceilings, so their ratios are to those ceilings; right after their rounds database ${REDIS_DATABASE.A} held ${keysIn(REDIS_DATABASE.A)}, database ${REDIS_DATABASE.B} ${keysIn(REDIS_DATABASE.B)} and database 0 ${keysIn(0)} (a key's minute and day windows, one more per minute boundary crossed). redis-server's own CPU is not in the gateways' CPU per request.`);
    await Promise.all(redisGateways.map((gateway) => gateway.process.stop()));
    await redis.stop();
  }
  await Promise.all([gatewayA.process.stop(), gatewayB.process.stop(), ceiling.stop(), sameHeadersCeiling.stop()]);
  const report: CompareReport = {
    ...runSetup(context.command, options, load),
    rows: context.build.rows,
    a: { label: ref, commit: tree.commit, buildSeconds: buildA.seconds, revision: buildA.stdout.trim().split('\n').at(-1) ?? '', firstResponseMs: gatewayA.firstResponseMs },
    b: { label: `this tree${dirty ? ' (with uncommitted changes)' : ''}`, commit: head, buildSeconds: context.build.buildSeconds, revision: context.build.revision, firstResponseMs: gatewayB.firstResponseMs },
    routes: figures,
    notes: [
      `both gateways run compiled (\`npm run compile\` in each tree; A's ${tree.compileSeconds.toFixed(1)} s, node_modules ${tree.nodeModules === 'symlink' ? 'shared with this tree by a symlink: identical package-lock.json' : 'installed by npm ci: the lockfiles differ'}) with the production flags; each serves its own snapshot of the same corpus with a commercial key from its own key store; limits raised, so every request is metered and none refused.`,
      'ceilings: bare node:http answering each path with the very bytes B returned, with Content-Type and Content-Length only ("ceiling") and with the response head B sent for that path, replayed as Method item 4 describes ("ceiling, same headers", the ceiling issue 25\'s goal names; its header names checked against B\'s before the run). Routes as issue 6 names them, and the collection, detail and sample asked in br and in gzip, each against the ceilings\' bytes of that coding.',
      ...redisNotes,
      `machine load average (1 min): ${context.loadAtStart.toFixed(1)} at start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end, on ${availableParallelism()} CPUs; read B/A against the min–max of both sides: a ratio inside the overlap of the spreads is no difference.`,
    ],
    elapsedSeconds: (performance.now() - context.began) / 1000,
  };
  return renderCompareReport(report);
}

/** The gateway modes that share their storage, each run over the licensed routes of REDIS_ROUTES. */
type SharedMode = Extract<RoundServer['mode'], 'gateway --redis' | 'gateway --redis --keys postgres'>;

/** Issues the bench's commercial key into `keyStore` (a SQLite file or a postgres:// URL) with `tree`'s `hra keys create`. */
async function createBenchKey(keyStore: string, tree = root): Promise<string> {
  const created = await run(process.execPath, ['--import', 'tsx', join(tree, 'scripts/hra.ts'), 'keys', 'create', '--keys', keyStore, '--tier', 'commercial', '--label', 'bench', '--json'], tree);
  return (JSON.parse(created.stdout.trim().split('\n').at(-1) ?? '{}') as { key: string }).key;
}

/** Prints a run's Markdown and puts it in its own section of the benchmarks file. */
function writeSection(options: BenchOptions, text: string): void {
  process.stdout.write(`${text}\n`);
  const out = resolve(root, options.out);
  let document = '';
  try {
    document = readFileSync(out, 'utf8');
  } catch {
    document = '# Benchmarks\n\nWritten by `npm run bench` (scripts/bench.ts); each configuration replaces its own section.\n';
  }
  writeFileSync(out, replaceSection(document, sectionId(options), text));
}

/** The routes of issue 6, read from the built snapshot: the largest city, one of its served records. */
function benchRoutes(dataset: string, corpusDir: string, apiKey: string, only: BenchOptions['routes']): BenchRoute[] {
  const db = new Database(dataset, { readonly: true, fileMustExist: true });
  let city: string;
  let recordId: string;
  try {
    const largest = db.prepare("SELECT city, count(*) AS served FROM programs WHERE city <> 'national' GROUP BY city ORDER BY served DESC, city LIMIT 1").get() as { city: string };
    city = largest.city;
    recordId = (db.prepare('SELECT id FROM programs WHERE city = ? ORDER BY ord LIMIT 1').get(city) as { id: string }).id;
  } finally {
    db.close();
  }
  const vocabularies = JSON.parse(readFileSync(join(corpusDir, 'vocabularies.json'), 'utf8')) as { categories: string[]; projectTypes: string[]; eligibilityTypes: string[]; specialPopulations: string[] };
  const miss = createMissQueries([
    ['income', INCOME_TIERS],
    ['type', vocabularies.eligibilityTypes],
    ['special', vocabularies.specialPopulations],
    ['status', FUNDING_STATUSES],
    ['project', vocabularies.projectTypes],
    ['category', vocabularies.categories],
  ]);
  const licensed = { 'X-Api-Key': apiKey };
  const routes: BenchRoute[] = [
    { id: 'unfiltered', path: `/api/programs/${city}`, headers: licensed },
    { id: 'filtered-miss', path: `/api/programs/${city}`, headers: licensed, miss },
    { id: 'filtered-hit', path: `/api/programs/${city}?income=low`, headers: licensed },
    { id: 'detail', path: `/api/programs/${city}/${encodeURIComponent(recordId)}`, headers: licensed },
    { id: 'sample', path: '/api/sample', headers: {} },
    { id: 'changes', path: '/api/changes?since=2026-01-01&limit=100', headers: licensed },
    { id: 'health', path: '/api/dataset/health', headers: {} },
  ];
  // The collection, detail and sample again asking for each coding alone (issue 35), right after each.
  return routes.filter((route) => only === undefined || only.some((id) => id === route.id)).flatMap((route) => {
    const id = COMPRESSED_ROUTE_IDS.find((candidate) => candidate === route.id);
    if (id === undefined) return [route];
    return [route, ...CODINGS.map((coding) => ({ ...route, id: compressedRouteId(id, coding), headers: { ...route.headers, 'Accept-Encoding': coding } }))];
  });
}

/** The coding a route asks for, or undefined for a plain route. */
function codingOf(route: BenchRoute): string | undefined {
  return route.headers['Accept-Encoding'];
}

/**
 * The answer a route gets once the gateway holds its compressed form: the first request of a body starts
 * its compression and is answered as it is, so ask until the answer is compressed (or, for a body under
 * the threshold or computed per request, until it is plainly never going to be).
 */
async function storedAnswer(origin: string, route: BenchRoute, path: string, apiKey: string): Promise<{ body: Buffer; rawHeaders: string[] }> {
  let answer = await fetchAnswer(origin, path, apiKey, route.headers);
  if (codingOf(route) === undefined || route.miss) return answer;
  for (let attempt = 0; attempt < 40 && !answer.rawHeaders.some((name) => name.toLowerCase() === 'content-encoding'); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = await fetchAnswer(origin, path, apiKey, route.headers);
  }
  return answer;
}

/**
 * Asks every live city's collection (and national) in br and in gzip, twice, so the gateway holds the
 * compressed forms its budget admits, and returns its RSS then: the memory cost of compression at this scale.
 */
async function rssWithCompressedForms(dataset: string, origin: string, pid: number, apiKey: string): Promise<{ rss: number | undefined; collections: number; seconds: number }> {
  const db = new Database(dataset, { readonly: true, fileMustExist: true });
  let cities: string[];
  try {
    cities = (db.prepare("SELECT DISTINCT city FROM programs ORDER BY city").all() as { city: string }[]).map((row) => row.city);
  } finally {
    db.close();
  }
  const started = performance.now();
  for (let pass = 0; pass < 2; pass++) {
    for (const coding of ['br', 'gzip']) {
      for (let index = 0; index < cities.length; index += 16) {
        await Promise.all(cities.slice(index, index + 16).map((city) => fetchAnswer(origin, `/api/programs/${city}`, apiKey, { 'Accept-Encoding': coding }).catch(() => undefined)));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { rss: await settledRss(pid), collections: cities.length, seconds: (performance.now() - started) / 1000 };
}

/**
 * Fetches every route's bytes from the gateway once and starts a ceiling serving exactly those: with two
 * headers, or (`sameHeaders`) with the gateway's own response head for each route, checked on the wire.
 */
async function startCeiling(work: string, gateway: BenchGateway, routes: readonly BenchRoute[], apiKey: string, state: RoundState, sameHeaders: boolean): Promise<BenchProcess> {
  const emptyHeads = (): CapturedHeads => ({ byPath: {}, miss: [], keepAliveTimeoutMs: 5_000, maxRequestsPerSocket: 0 });
  const ceilingRoutes: CeilingRoutes = { bodies: {}, missBody: '', compressed: {} };
  const heads = emptyHeads();
  const compressedHeads = new Map<string, CapturedHeads>();
  for (const route of routes) {
    const coding = codingOf(route);
    const compressed = ceilingRoutes.compressed as NonNullable<CeilingRoutes['compressed']>;
    if (coding !== undefined && compressed[coding] === undefined) {
      compressed[coding] = { bodies: {}, missBody: '' };
      compressedHeads.set(coding, emptyHeads());
    }
    const set = coding === undefined ? ceilingRoutes : (compressed[coding] as Omit<CeilingRoutes, 'compressed'>);
    const setHeads = coding === undefined ? heads : (compressedHeads.get(coding) as CapturedHeads);
    // The ceiling answers every miss query with the bytes of the first one: a typical filtered collection.
    const path = route.miss ? `${route.path}?${route.miss.query(state.missOffset++)}` : route.path;
    const answer = await storedAnswer(gateway.process.url, route, path, apiKey);
    const head = replayableHead(answer.rawHeaders);
    if (route.miss) {
      set.missBody = answer.body.toString('base64');
      setHeads.miss = head.headers;
    } else {
      set.bodies[route.path] = answer.body.toString('base64');
      setHeads.byPath[route.path] = head.headers;
    }
    setHeads.keepAliveTimeoutMs = head.keepAliveTimeoutMs;
    setHeads.maxRequestsPerSocket = head.maxRequestsPerSocket;
  }
  if (sameHeaders) {
    ceilingRoutes.sameHeaders = heads;
    for (const [coding, set] of Object.entries(ceilingRoutes.compressed ?? {})) set.sameHeaders = compressedHeads.get(coding);
  }
  const name = sameHeaders ? 'ceiling-same-headers' : 'ceiling';
  const file = join(work, `${name}-routes.json`);
  writeFileSync(file, JSON.stringify(ceilingRoutes));
  // Compiled and with the production flags, as the gateway is started (bench-gateway.ts): under tsx the
  // ceiling would carry a loader thread and another module graph the gateway does not.
  const ceiling = await spawnServer(process.execPath, [...PRODUCTION_NODE_FLAGS, join(root, COMPILED_CEILING), file], root, join(work, `${name}.log`));
  if (sameHeaders) {
    // The point of this ceiling is the gateway's head: refuse to measure one that differs in any name.
    const first = routes.find((route) => route.miss === undefined) as BenchRoute;
    const names = (raw: readonly string[]) => raw.filter((_, i) => i % 2 === 0).join(', ');
    const [ours, its] = [await fetchAnswer(gateway.process.url, first.path, apiKey), await fetchAnswer(ceiling.url, first.path, apiKey)];
    if (names(ours.rawHeaders) !== names(its.rawHeaders)) {
      await ceiling.stop();
      throw new Error(`same-headers ceiling sends ${names(its.rawHeaders)}; the gateway sends ${names(ours.rawHeaders)}`);
    }
  }
  return ceiling;
}

async function warmUp(load: LoadGenerator, routes: readonly BenchRoute[], servers: readonly RoundServer[], options: BenchOptions, state: RoundState): Promise<void> {
  progress(`bench: warming up ${servers.map((server) => server.mode).join(', ')} (${options.warmupSeconds} s per route)`);
  for (const server of servers) {
    // The ceiling has no code path to warm beyond node:http's own: one route is enough.
    for (const route of isCeiling(server.mode) ? routes.slice(0, 1) : routes) {
      await driveOnce(load, route, server, options.warmupSeconds, options.connections, state);
    }
  }
}

/** RSS after a second of quiet, once the routes' first requests have been served. */
async function settledRss(pid: number): Promise<number | undefined> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return residentBytes(pid);
}

function gatewayFigures(mode: GatewayFigures['mode'], gateway: BenchGateway, restRssBytes: number | undefined, state: RoundState): GatewayFigures {
  return {
    mode,
    restRssBytes,
    loadRssBytes: state.peakRss.get(gateway.process.pid),
    listeningMs: gateway.process.listeningMs,
    firstResponseMs: gateway.firstResponseMs,
  };
}

/** Drives the unfiltered route on a gateway started with `--cpu-prof` and summarizes the main thread's profile. */
async function profileGateway(
  work: string,
  config: { root: string; dataset: string; keys: string; limits: string; logFile: string },
  route: BenchRoute,
  apiKey: string,
  load: LoadGenerator,
  options: BenchOptions,
  state: RoundState,
): Promise<ProfileSummary> {
  const dir = join(work, 'profile');
  mkdirSync(dir);
  const gateway = await startBenchGateway({ ...config, cpuProfileDir: dir }, route.path, apiKey);
  const server: RoundServer = { mode: 'gateway', origin: gateway.process.url };
  progress(`bench: profiling ${route.id} for ${options.profileSeconds} s`);
  await driveOnce(load, route, server, options.warmupSeconds, options.connections, state);
  await driveOnce(load, route, server, options.profileSeconds, options.connections, state);
  await gateway.process.stop();
  // The main thread's profile is `CPU.<date>.<time>.<pid>.0.<seq>.cpuprofile`; any worker thread writes another.
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  const main = files.find((name) => name.includes(`.${gateway.process.pid}.0.`)) ?? files.sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (main === undefined) throw new Error(`no .cpuprofile written in ${dir}`);
  const kept = join(tmpdir(), `hra-bench-gateway-${Date.now()}.cpuprofile`);
  writeFileSync(kept, readFileSync(join(dir, main)));
  progress(`bench: gateway CPU profile kept at ${kept} (open in Chrome DevTools)`);
  return { route: `\`${route.id}\` (warm-up ${options.warmupSeconds} s included; start-up excluded by self-time ranking)`, seconds: options.profileSeconds, top: summarizeCpuProfile(JSON.parse(readFileSync(join(dir, main), 'utf8')) as CpuProfile, 15) };
}

function routeNotes(routes: readonly BenchRoute[], loadTool: string): string[] {
  const miss = routes.find((route) => route.miss)?.miss;
  return [
    `paths: ${routes.map((route) => `${route.id} \`${route.path}${route.miss ? '?<filters>' : ''}\``).join(', ')}; licensed routes carry \`X-Api-Key\` of a commercial key (limits raised with \`--limits\`: metered, never refused).`,
    `filtered-miss: request n gets combination n·${1_000_003} mod ${miss?.size ?? '?'} of income × type × special × status × project × category (each value or absent), never repeated in a run, so every request misses the filtered-collection cache; most combinations match few or no records, so its bytes/resp is small. The ceiling answers every such query with one representative filtered body.`,
    `gateway stderr (one line per request in pino's format, written by logRequestLine and handed to sonic-boom in batches of up to 20 ms or 64 KiB) goes to a file, as in production.`,
    `ceiling: bare node:http in its own process, compiled and started with the gateway's production flags, answering each path from a Map of the very bytes the gateway returned (Content-Type and Content-Length only). Ratio = gateway median / ceiling median of the same route in the same run.`,
    `(br) and (gzip) rows: the collection, detail and sample paths asked with \`Accept-Encoding: br\` and with \`Accept-Encoding: gzip\`, once the gateway holds the body's compressed form (compressed ahead of use); both ceilings answer such a request with the very compressed bytes the gateway sent for that coding (and, with same headers, its Content-Encoding, Vary and ETag).`,
    `ceiling, same headers: the same server replaying, per path, the response head the gateway sent (every header it set, in its order, per-request values such as X-Request-ID and RateLimit as captured once; Date, Connection and Keep-Alive added by node:http as in the gateway, with the gateway's keep-alive timeout and requests per socket). Its header names are checked against a gateway response before the run. Ratios to both ceilings are side by side below the route table.`,
    `CPU µs/req: the server process's user + system time over a round (from /proc/<pid>/stat) divided by its requests; "vs ceiling by CPU" = ceiling CPU per request / gateway CPU per request, the throughput ratio both would reach with a core each to themselves.`,
    `p50/p99: medians of the rounds' percentiles, worst round's p99 in parentheses. RSS: VmRSS of the gateway process, at rest after one request per route, peak sampled every 200 ms under load. Load client: ${loadTool}.`,
  ];
}

main().catch((error: unknown) => {
  process.stderr.write(`hra bench: ${(error as Error).message}\n`);
  process.exit(1);
});
