/** The `npm run bench` command line, parsed once into a frozen object. */

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
}

/** Usage line printed on a bad argument. */
export const BENCH_USAGE = 'usage: npm run bench -- [--quick] [--scale N] [--profile|--no-profile] [--no-redis] [--no-postgres] [--links] [--out BENCHMARKS.md]';

/** Parses argv (after the script name); throws one line naming a bad argument. */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  let quick = false;
  let scale = 1;
  let profile: boolean | undefined;
  let redis = true;
  let postgres = true;
  let links = false;
  let out = 'BENCHMARKS.md';
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
    else if (arg === '--out') out = value();
    else if (arg === '--scale') {
      const text = value();
      scale = Number(text);
      if (!Number.isInteger(scale) || scale < 1 || scale > 20) throw new Error(`--scale must be an integer from 1 to 20, got ${JSON.stringify(text)}`);
    } else throw new Error(`unknown argument ${JSON.stringify(arg)}; ${BENCH_USAGE}`);
  }
  return Object.freeze({
    quick,
    scale,
    rounds: quick ? 2 : 3,
    // Quick: 2 s rounds keep the whole run, compile and build included, within its 2 minutes.
    roundSeconds: quick ? 2 : 10,
    warmupSeconds: 1,
    connections: 64,
    profile: profile ?? !quick,
    profileSeconds: quick ? 3 : 5,
    redis,
    postgres,
    out,
    links,
  });
}

/** The section id of a configuration in BENCHMARKS.md: one section per scale and mode. */
export function sectionId(options: Pick<BenchOptions, 'scale' | 'quick'> & Partial<Pick<BenchOptions, 'links'>>): string {
  if (options.links) return `links-scale-${options.scale}`;
  return `scale-${options.scale}${options.quick ? '-quick' : ''}`;
}
