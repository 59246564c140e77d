/**
 * `hra quotes check` and `hra quotes replay`: amount quotes judged on a saved or archived page, and every
 * archived verdict derived again, offline, as the weekly `links check` judges them.
 */
import type { Command } from 'commander';
import type { QuotesCheckFlags } from './quotes-check-action.ts';
import type { QuotesReplayFlags } from './quotes-replay-action.ts';
import { loadModules } from '../module-load-failure.ts';

/** Registers `hra quotes` and its `check` and `replay` subcommands on the root program; each action's modules load when it runs. */
export function registerQuotesCommand(program: Command): void {
  const quotes = program.command('quotes').description('look at amount quotes on a saved or archived page, as hra links check judges them');

  quotes
    .command('check')
    .description('judge each quote on a saved page or an archived response offline (the weekly run\'s extraction and matching): found, not-found or inconclusive, one line per quote in the order given; exits 0 whatever the outcomes')
    .option('--page <file>', 'the saved page: HTML, PDF or plain text, its body as served')
    .option('--warc <file>', 'instead of --page: a WARC file of the evidence archive, read without its index')
    .option('--record <id>', 'with --warc: the WARC-Record-ID of the response to judge (a revisit is followed within the file)')
    .option('--content-type <type>', 'the Content-Type it was served with (default: the archived response\'s for --warc; none for --page, so the format is sniffed from the bytes)')
    .requiredOption('--quote <text>', 'a quote to look for; repeat the flag for more', (quote: string, previous: string[] | undefined) => [...(previous ?? []), quote])
    .option('--json', 'print one JSON object per quote: {quote, outcome, reason?, textLength?, textSha256?, brokeOffAt?}')
    .action(async (flags: QuotesCheckFlags) => (await loadModules(() => import('./quotes-check-action.ts'))).runQuotesCheck(flags));

  quotes
    .command('replay')
    .description('derive every archived link and quote verdict again from the evidence archive, offline, with the weekly run\'s extraction and matching; --verify compares and fails on any difference, otherwise differing quote checks are appended as re-derived lines')
    .requiredOption('--corpus <dir>', 'the corpus whose evidence lines name archived records')
    .option('--archive <dir>', 'the evidence archive (default: the folder archive beside the corpus folder)')
    .option('--since <date>', 'only verdicts checked on or after this date (YYYY-MM-DD)')
    .option('--verify', 'compare only: print the counts and each difference, exit 1 if any verdict differs or any payload fails its digest; never appends')
    .option('--json', 'print one JSON object: {ok, checked, match, differ, appended?, differences}')
    .action(async (flags: QuotesReplayFlags) => (await loadModules(() => import('./quotes-replay-action.ts'))).runQuotesReplay(flags));
}
