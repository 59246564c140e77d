/**
 * Preloaded (`node --import tsx --import ./scripts/bench/report-max-rss.ts …`) when /usr/bin/time is
 * missing: prints the process's peak RSS on stderr at exit, as `bench-max-rss-kb <n>`.
 */
process.once('exit', () => {
  process.stderr.write(`bench-max-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
