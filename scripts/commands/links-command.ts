/** `hra links check` and `hra links report`: the weekly verification of the URLs served records cite. */
import type { Command } from 'commander';
import { CliFailure } from '../cli-failure.ts';
import type { LinksCheckFlags } from './links-check-action.ts';
import { CHECK_FLAG_DEFAULTS } from './links-check-flag-defaults.ts';
import type { LinksReportFlags } from './links-report-action.ts';
import { loadModules } from '../module-load-failure.ts';

/**
 * Registers `hra links` and its two subcommands on the root program. Each action's modules (the fetcher,
 * undici, the archive writer, the extractors) load when it runs: every other command registers this one too.
 */
export function registerLinksCommand(program: Command): void {
  const links = program.command('links').description('check the cited URLs and report the ones to correct (evidence/link-checks.ndjson)');
  const defaults = CHECK_FLAG_DEFAULTS;

  // Commander lets the last of `--archive <dir>` and `--no-archive` win; given both, the operator meant one.
  const archiveFlags = new Set<string>();
  links
    .command('check')
    .on('option:archive', () => archiveFlags.add('--archive'))
    .on('option:no-archive', () => archiveFlags.add('--no-archive'))
    .description('check cited URLs and amount quotes not checked within --max-age-days, appending each URL\'s attempt and quote checks as it finishes')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .option('--at <date-time>', 'time of the run, ISO 8601 with a timezone; attempts record its UTC date (default: now)')
    .option('--max-age-days <n>', 'skip URLs whose latest attempt is fewer days old than this', defaults.maxAgeDays)
    .option('--url <url...>', 'check only these cited URLs')
    .option('--concurrency <n>', 'URLs checked at once', defaults.concurrency)
    .option('--per-host <n>', 'requests in flight to one host at most', defaults.perHost)
    .option('--host-interval-ms <n>', 'least time between two request starts to one host', defaults.hostIntervalMs)
    .option('--timeout-ms <n>', 'deadline of one request (connect, headers and the body read)', defaults.timeoutMs)
    .option('--retries <n>', 'retries of a request after a timeout, a connection failure, 429 or 5xx', defaults.retries)
    .option('--proxy <url>', 'send every request through this HTTP proxy')
    .option('--user-agent <text>', 'User-Agent header (default: names the dataset and the manifest\'s contact URL)')
    .option('--allow-private-addresses', 'tests and development only: let URLs reach loopback, private and other non-public addresses')
    .option('--no-quotes', 'check links only: no page text is read and no quote check is made')
    .option('--archive <dir>', 'evidence archive: every fetched exchange kept as WARC there (default: archive beside the corpus folder)')
    .option('--no-archive', 'archive nothing; the lines appended then name no archived record')
    .option('--archive-roll-mb <n>', 'start a new WARC file once one reaches this many MiB', defaults.archiveRollMb)
    .option('--dry-run', 'check, but append nothing and archive nothing: print the attempts on stdout instead')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action((flags: LinksCheckFlags) => {
      if (archiveFlags.size === 2) throw new CliFailure('--archive and --no-archive: give one of them; nothing was checked or appended');
      return loadModules(() => import('./links-check-action.ts')).then(({ runLinksCheck }) => runLinksCheck(flags));
    });

  links
    .command('report')
    .description('per city: quotes no longer found with the amounts the pages state, reviews turning stale within 14 days, programs likely closed, URLs now dead or bot-blocked')
    .requiredOption('--corpus <dir>', 'corpus folder')
    .option('--at <date-time>', "the day the report looks ahead from, ISO 8601 with a timezone (default: the manifest's asOf, from which the build counts review staleness)")
    .option('--json', 'print the report as one JSON object on the last stdout line')
    .option('--markdown', 'print the report as Markdown, for a pull-request description')
    .action(async (flags: LinksReportFlags) => (await loadModules(() => import('./links-report-action.ts'))).runLinksReport(flags));
}
