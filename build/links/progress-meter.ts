/** Progress lines of a long link-check run: done/total, rate, ETA and memory, at most one per interval. */

/** Options of createProgressMeter. */
export interface ProgressMeterOptions {
  total: number;
  /** Monotonic ms. */
  now(): number;
  write(line: string): void;
  /** Resident memory in bytes, shown so an operator (and the benchmark) can see it stay flat. */
  residentBytes(): number;
  everyMs: number;
  /** The least time the rest of the run can take, in ms (the politeness schedule); an ETA never shows less. */
  floorMs?(): number;
}

/** A progress meter; `tick` once per finished URL. */
export interface ProgressMeter {
  tick(): void;
  /** Starts the rate an ETA is drawn from; until then, and for ETA_SAMPLE URLs after, the ETA is `unknown`. */
  startEta(): void;
  line(): string;
}

/** URLs finished after startEta before an ETA is shown: fewer give a rate that says little. */
export const ETA_SAMPLE = 20;

/** Counts finished URLs and writes a line when `everyMs` has passed since the last one. */
export function createProgressMeter(options: ProgressMeterOptions): ProgressMeter {
  const started = options.now();
  let done = 0;
  let lastLine = started;
  let etaFrom: { at: number; done: number } | undefined;
  const eta = (): string => {
    const left = options.total - done;
    if (left === 0) return '0 s';
    if (etaFrom === undefined || done - etaFrom.done < ETA_SAMPLE) return 'unknown';
    const seconds = (options.now() - etaFrom.at) / 1000;
    if (seconds <= 0) return 'unknown';
    const byRate = left / ((done - etaFrom.done) / seconds);
    return formatSeconds(Math.max(byRate, (options.floorMs?.() ?? 0) / 1000));
  };
  const line = () => {
    const seconds = (options.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const share = options.total === 0 ? 100 : (100 * done) / options.total;
    const rss = (options.residentBytes() / 1e6).toFixed(0);
    return `links: ${done}/${options.total} checked (${share.toFixed(1)}%), ${rate.toFixed(1)}/s, eta ${eta()}, rss ${rss} MB`;
  };
  return {
    tick() {
      done += 1;
      if (options.now() - lastLine >= options.everyMs) {
        lastLine = options.now();
        options.write(line());
      }
    },
    startEta() {
      etaFrom ??= { at: options.now(), done };
    },
    line,
  };
}

function formatSeconds(seconds: number): string {
  if (seconds < 90) return `${Math.ceil(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 90 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
