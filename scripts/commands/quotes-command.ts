/** `hra quotes check`: amount quotes judged on a saved page, offline, as the weekly `links check` judges them. */
import type { Command } from 'commander';
import { runQuotesCheck, type QuotesCheckFlags } from './quotes-check-action.ts';

/** Registers `hra quotes` and its `check` subcommand on the root program. */
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
    .action((flags: QuotesCheckFlags) => runQuotesCheck(flags));
}
