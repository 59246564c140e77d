/**
 * `hra reviews due`, `run`, `export` and `import`: the review queue, the model reviewer that works it from
 * the evidence archive through any OpenAI-compatible endpoint, and a person's worksheet
 * (docs/maintainers.md, "Reviews").
 */
import type { Command } from 'commander';
import type { ReviewsDueFlags } from './reviews-due-action.ts';
import type { ReviewsRunFlags } from './reviews-run-action.ts';
import type { ReviewsExportFlags, ReviewsImportFlags } from './reviews-worksheet-actions.ts';
import { loadModules } from '../module-load-failure.ts';

/** Registers `hra reviews` and its subcommands on the root program. */
export function registerReviewsCommand(program: Command): void {
  const reviews = program.command('reviews').description('the source-review queue, the model reviewer and a person\'s worksheet');

  reviews
    .command('due')
    .description('list every served city record that needs a source review: none, stale, turning stale, or no longer valid (URL or amount corrected since, archived page changed); soonest first, then the counts per reason')
    .requiredOption('--corpus <dir>', 'the corpus')
    .option('--at <date>', 'the day to draw the queue up for, YYYY-MM-DD (default: the manifest\'s asOf)')
    .option('--within-days <n>', 'also list reviews that turn stale within this many days (default 14)')
    .option('--json', 'print one JSON object: {ok, at, withinDays, due: [...], counts}')
    .action(async (flags: ReviewsDueFlags) => (await loadModules(() => import('./reviews-due-action.ts'))).runReviewsDue(flags));

  reviews
    .command('run')
    .description('review due records with a model: the archived page\'s visible text, one call per record, the answer accepted only when the archive confirms it; each accepted review is appended to evidence/source-reviews.ndjson after its exchange is archived')
    .requiredOption('--corpus <dir>', 'the corpus')
    .option('--archive <dir>', 'the evidence archive (default: the folder archive beside the corpus folder)')
    .requiredOption('--endpoint <url>', 'the base URL of an OpenAI-compatible endpoint, such as http://127.0.0.1:8080/v1')
    .requiredOption('--model <name>', 'the model name the endpoint serves')
    .option('--api-key-env <var>', 'the environment variable that holds the API key (never printed, logged or archived); without it no key is sent')
    .option('--only <city/programId>', 'review only this record (if due); repeat for more', (value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    .option('--limit <n>', 'review at most this many records, soonest due first')
    .option('--concurrency <n>', 'calls in flight at once (default 4)')
    .option('--timeout-ms <n>', 'longest one attempt may take, answer included, 100 to 600000 (default 60000)')
    .option('--retries <n>', 'attempts after the first on 429, 5xx, a timeout or a broken connection, 0 to 10 (default 3)')
    .option('--at <date-time>', 'the run\'s time, ISO 8601 with a timezone: the reviews\' date and the queue\'s day (default: now)')
    .option('--dry-run', 'list what would be reviewed and the prompt sizes; call nothing, append nothing')
    .option('--json', 'print one JSON object: {ok, reviewed, rejected, needsLinksCheck, failed, outcomes, tokens}')
    .action(async (flags: ReviewsRunFlags) => (await loadModules(() => import('./reviews-run-action.ts'))).runReviewsRun(flags));

  reviews
    .command('export')
    .description('write a worksheet a person fills in a spreadsheet: one row per served record citing a URL, with its latest archived page and the passages a reviewer is shown; the identity, amountQuote, statedAmount and note columns are left to fill')
    .requiredOption('--corpus <dir>', 'the corpus whose records to review')
    .option('--archive <dir>', 'the evidence archive (default: the folder archive beside the corpus folder)')
    .requiredOption('--out <file.csv>', 'the worksheet to write; never overwritten')
    .option('--only <city/programId>', 'only this record; repeat the flag for more', (name: string, previous: string[] | undefined) => [...(previous ?? []), name])
    .option('--due', 'only the records hra reviews due lists (of those --only names, if given), in its order')
    .option('--at <date>', 'with --due: the day to draw the queue up for, YYYY-MM-DD (default: the manifest\'s asOf)')
    .option('--within-days <n>', 'with --due: also the reviews that turn stale within this many days (default 14)')
    .option('--json', 'print one JSON object: {ok, worksheet, records, needLinksCheck: [{city, programId, reason}]}')
    .action(async (flags: ReviewsExportFlags) => (await loadModules(() => import('./reviews-worksheet-actions.ts'))).runReviewsExport(flags));

  reviews
    .command('import')
    .description('check every row of a filled worksheet against the corpus and the archived page (an unknown record, an edited cell, a bad verdict, a quote the page\'s visible text lacks) and append all its reviews with reviewer {kind: person, name}, or none')
    .argument('<file.csv>', 'the filled worksheet')
    .requiredOption('--corpus <dir>', 'the corpus to append the reviews to (evidence/source-reviews.ndjson)')
    .option('--archive <dir>', 'the evidence archive (default: the folder archive beside the corpus folder)')
    .requiredOption('--reviewer <name>', 'the person who filled the worksheet')
    .option('--at <date>', 'the review date written into each line (default: today, UTC)')
    .option('--json', 'print one JSON object: {ok, appended, unsure, unfilled}')
    .action(async (file: string, flags: ReviewsImportFlags) => (await loadModules(() => import('./reviews-worksheet-actions.ts'))).runReviewsImport(file, flags));
}
