/** `hra reviews`: source reviews made by tools and people; here a person's worksheet (export, import). */
import type { Command } from 'commander';
import { runReviewsExport, runReviewsImport, type ReviewsExportFlags, type ReviewsImportFlags } from './reviews-worksheet-actions.ts';

/** Registers `hra reviews` and its worksheet subcommands on the root program. */
export function registerReviewsCommand(program: Command): void {
  const reviews = program.command('reviews').description('source reviews bound to archived pages: a person\'s worksheet');

  reviews
    .command('export')
    .description('write a worksheet a person fills in a spreadsheet: one row per served record citing a URL, with its latest archived page and the passages a reviewer is shown; the identity, amountQuote, statedAmount and note columns are left to fill')
    .requiredOption('--corpus <dir>', 'the corpus whose records to review')
    .option('--archive <dir>', 'the evidence archive (default: the folder archive beside the corpus folder)')
    .requiredOption('--out <file.csv>', 'the worksheet to write; never overwritten')
    .option('--only <city/programId>', 'only this record; repeat the flag for more', (name: string, previous: string[] | undefined) => [...(previous ?? []), name])
    .option('--json', 'print one JSON object: {ok, worksheet, records, needLinksCheck: [{city, programId, reason}]}')
    .action((flags: ReviewsExportFlags) => runReviewsExport(flags));

  reviews
    .command('import')
    .description('check every row of a filled worksheet against the corpus and the archived page (an unknown record, an edited cell, a bad verdict, a quote the page\'s visible text lacks) and append all its reviews with reviewer {kind: person, name}, or none')
    .argument('<file.csv>', 'the filled worksheet')
    .requiredOption('--corpus <dir>', 'the corpus to append the reviews to (evidence/source-reviews.ndjson)')
    .option('--archive <dir>', 'the evidence archive (default: the folder archive beside the corpus folder)')
    .requiredOption('--reviewer <name>', 'the person who filled the worksheet')
    .option('--at <date>', 'the review date written into each line (default: today, UTC)')
    .option('--json', 'print one JSON object: {ok, appended, unsure, unfilled}')
    .action((file: string, flags: ReviewsImportFlags) => runReviewsImport(file, flags));
}
