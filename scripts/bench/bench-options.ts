/** The `npm run bench` command line, parsed once into a frozen object. */
import { BASE_ROUTE_IDS, type BaseRouteId } from './render-report.ts';

/** How a bench run is shaped. */
export interface BenchOptions {
  readonly quick: boolean;
  /** Multiple of the published scale (57,000 rows at 1). */
  readonly scale: number;
  readonly rounds: number;
  readonly roundSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Profile the gateway under load with `node --cpu-prof` (default: full runs only). */
  readonly profile: boolean;
  readonly profileSeconds: number;
  /** Skip the `--redis` phase even when redis-server is installed. */
  readonly redis: boolean;
  /** Skip the `--redis --keys postgres://` phase even when Redis and PostgreSQL are installed. */
  readonly postgres: boolean;
  /** Markdown file whose section for this configuration is replaced. */
  readonly out: string;
  /** Run only the link-checker phase (`hra links check` against a loopback fixture), not the gateway. */
  readonly links: boolean;
  /** Run only the hostile-pages phase (`hra links check` at default settings over pages built to exhaust it). */
  readonly hostilePages: boolean;
  /**
   * Run only the reviews phase (bench-reviews.ts): `hra reviews run` against the loopback model answering
   * after 1 s and after 5 s, in alternating rounds, at the default concurrency.
   */
  readonly reviews: boolean;
  /**
   * Run only the start-up phase (bench-startup.ts): spawn to first licensed 200 of each way the gateway is
   * started, beside `openssl dgst -sha256` of the same file and `node -e 0`, in interleaved rounds.
   */
  readonly startup: boolean;
  /**
   * A git ref to measure against this tree in the same run (`--compare <ref>`): its tree is extracted,
   * compiled and built separately, and its gateway's rounds interleave with this one's and the ceiling's.
   */
  readonly compare: string | undefined;
  /**
   * The base routes driven (`--routes unfiltered,detail`), each with its br and gzip variants where it has
   * them; undefined: every route. A shorter run for a loaded machine, with more rounds in the same minutes.
   */
  readonly routes: readonly BaseRouteId[] | undefined;
}

/**
 * Whether a run drives HTTP load, and so needs wrk: every mode but the link checker's phase (`--links`),
 * the start-up phase (`--startup`) and the hostile-pages and reviews phases, which time their own commands
 * and send no load.
 */
export function drivesLoad(options: Pick<BenchOptions, 'links' | 'startup'> & Partial<Pick<BenchOptions, 'hostilePages' | 'reviews'>>): boolean {
  return !options.links && !options.startup && options.hostilePages !== true && options.reviews !== true;
}

/** Usage line printed on a bad argument. */
export const BENCH_USAGE = 'usage: npm run bench -- [--quick] [--scale N] [--profile|--no-profile] [--no-redis] [--no-postgres] [--links | --startup | --hostile-pages | --reviews] [--compare <git ref>] [--rounds N] [--round-seconds S] [--routes ID,ID] [--out BENCHMARKS.md]';

/** Parses argv (after the script name); throws one line naming a bad argument. */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  let quick = false;
  let scale = 1;
  let profile: boolean | undefined;
  let redis = true;
  let postgres = true;
  let links = false;
  let startup = false;
  let hostilePages = false;
  let reviews = false;
  let out = 'BENCHMARKS.md';
  let compare: string | undefined;
  let rounds: number | undefined;
  let roundSeconds: number | undefined;
  let routes: BaseRouteId[] | undefined;
  const integerIn = (arg: string, text: string, min: number, max: number) => {
    const number = Number(text);
    if (!Number.isInteger(number) || number < min || number > max) throw new Error(`${arg} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}; ${BENCH_USAGE}`);
    return number;
  };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    const value = () => {
      const next = argv[++index];
      if (next === undefined) throw new Error(`${arg} needs a value; ${BENCH_USAGE}`);
      return next;
    };
    if (arg === '--quick') quick = true;
    else if (arg === '--profile') profile = true;
    else if (arg === '--no-profile') profile = false;
    else if (arg === '--no-redis') redis = false;
    else if (arg === '--no-postgres') postgres = false;
    else if (arg === '--links') links = true;
    else if (arg === '--startup') startup = true;
    else if (arg === '--hostile-pages') hostilePages = true;
    else if (arg === '--reviews') reviews = true;
    else if (arg === '--out') out = value();
    else if (arg === '--compare') {
      compare = value();
      // A ref is handed to git as one argument; one that looks like an option would be read as one.
      if (compare.startsWith('-') || compare.trim() === '') throw new Error(`--compare needs a git ref (a commit, branch or tag), got ${JSON.stringify(compare)}; ${BENCH_USAGE}`);
    }
    else if (arg === '--rounds') rounds = integerIn(arg, value(), 1, 50);
    else if (arg === '--round-seconds') roundSeconds = integerIn(arg, value(), 1, 120);
    else if (arg === '--routes') {
      const text = value();
      const named = text.split(',').map((id) => id.trim());
      const unknown = named.find((id) => !(BASE_ROUTE_IDS as readonly string[]).includes(id));
      if (unknown !== undefined || named.length === 0) throw new Error(`--routes takes route ids from ${BASE_ROUTE_IDS.join(', ')}, comma-separated, got ${JSON.stringify(unknown ?? text)}; ${BENCH_USAGE}`);
      routes = BASE_ROUTE_IDS.filter((id) => named.includes(id));
      // The run probes the gateway and checks the same-headers ceiling on a route with a fixed path.
      if (routes.every((id) => id === 'filtered-miss')) throw new Error(`--routes needs a route besides filtered-miss, whose query varies per request; ${BENCH_USAGE}`);
    }
    else if (arg === '--scale') {
      const text = value();
      scale = Number(text);
      if (!Number.isInteger(scale) || scale < 1 || scale > 20) throw new Error(`--scale must be an integer from 1 to 20, got ${JSON.stringify(text)}`);
    } else throw new Error(`unknown argument ${JSON.stringify(arg)}; ${BENCH_USAGE}`);
  }
  if (links && compare !== undefined) throw new Error(`--compare measures the gateway; it cannot be combined with --links; ${BENCH_USAGE}`);
  if ([links, startup, hostilePages, reviews].filter(Boolean).length > 1) throw new Error(`--links and --startup each run one phase alone, as do --hostile-pages and --reviews; choose one; ${BENCH_USAGE}`);
  if (hostilePages && compare !== undefined) throw new Error(`--compare measures the gateway; it cannot be combined with --hostile-pages; ${BENCH_USAGE}`);
  if (reviews && compare !== undefined) throw new Error(`--compare measures the gateway; it cannot be combined with --reviews; ${BENCH_USAGE}`);
  if (routes !== undefined && !drivesLoad({ links, startup, hostilePages, reviews })) throw new Error(`--routes chooses the routes load is driven on; --links, --startup, --hostile-pages and --reviews drive none; ${BENCH_USAGE}`);
  if (reviews && scale !== 1) throw new Error(`--reviews runs at the published scale and prices ten times it from that; it takes no --scale; ${BENCH_USAGE}`);
  return Object.freeze({
    quick,
    scale,
    // --links: one round unless asked (a round at the published scale is three link-check runs, minutes each).
    rounds: rounds ?? (links ? 1 : quick ? 2 : 3),
    // Quick: 2 s rounds keep the whole run, compile and build included, within its 2 minutes.
    roundSeconds: roundSeconds ?? (quick ? 2 : 10),
    warmupSeconds: 1,
    connections: 64,
    profile: profile ?? !quick,
    profileSeconds: quick ? 3 : 5,
    redis,
    postgres,
    out,
    links,
    startup,
    hostilePages,
    reviews,
    compare,
    routes,
  });
}

/** The section id of a configuration in BENCHMARKS.md: one section per scale and mode. */
export function sectionId(options: Pick<BenchOptions, 'scale' | 'quick'> & Partial<Pick<BenchOptions, 'links' | 'startup' | 'hostilePages' | 'reviews' | 'compare'>>): string {
  if (options.hostilePages) return 'hostile-pages';
  if (options.reviews) return `reviews${options.quick ? '-quick' : ''}`;
  if (options.links) return `links-scale-${options.scale}${options.quick ? '-quick' : ''}`;
  if (options.startup) return `startup-${options.compare === undefined ? '' : 'compare-'}scale-${options.scale}${options.quick ? '-quick' : ''}`;
  // One section per scale for comparisons, whatever the ref: the latest before/after replaces the last.
  if (options.compare !== undefined) return `compare-scale-${options.scale}${options.quick ? '-quick' : ''}`;
  return `scale-${options.scale}${options.quick ? '-quick' : ''}`;
}
