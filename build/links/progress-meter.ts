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
}

/** Counts finished URLs and writes a line when `everyMs` has passed since the last one. */
export function createProgressMeter(options: ProgressMeterOptions): { tick(): void; line(): string } {
  const started = options.now();
  let done = 0;
  let lastLine = started;
  const line = () => {
    const seconds = (options.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const left = options.total - done;
    const eta = rate > 0 ? `${formatSeconds(left / rate)}` : 'unknown';
    const share = options.total === 0 ? 100 : (100 * done) / options.total;
    const rss = (options.residentBytes() / 1e6).toFixed(0);
    return `links: ${done}/${options.total} checked (${share.toFixed(1)}%), ${rate.toFixed(1)}/s, eta ${eta}, rss ${rss} MB`;
  };
  return {
    tick() {
      done += 1;
      if (options.now() - lastLine >= options.everyMs) {
        lastLine = options.now();
        options.write(line());
      }
    },
    line,
  };
}

function formatSeconds(seconds: number): string {
  if (seconds < 90) return `${Math.ceil(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 90 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
