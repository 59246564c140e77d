/** The `hra reviews due` action: the review queue as text or JSON. */
import type { Corpus } from '../../build/corpus/corpus-types.ts';
import { DEFAULT_DUE_WITHIN_DAYS, DUE_REASONS, findDueReviews, type DueReviewOptions, type DueReviews } from '../../build/reviews/find-due-reviews.ts';
import { CliFailure, printJson } from '../cli-failure.ts';
import { isCalendarDate } from './is-calendar-date.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';

/** The flags as commander hands them over. */
export interface ReviewsDueFlags {
  corpus: string;
  at?: string;
  withinDays?: string;
  json?: boolean;
}

/** Prints the queue: one line per record, soonest first, then the counts per reason. */
export function runReviewsDue(flags: ReviewsDueFlags): void {
  const readOptions = readDueFlags(flags);
  const corpus = loadCorpusOrFail(flags.corpus);
  const queue = findDueReviews(corpus, readOptions(corpus));
  if (flags.json) printJson({ ok: true, ...queue });
  else process.stdout.write(renderDueReviews(queue));
}

/** The text form: `date reason city/programId tierNow -> tierWithout`, then one count line. */
export function renderDueReviews(queue: DueReviews): string {
  const lines = queue.due.map((item) => `${item.date ?? '-'.padEnd(10)}  ${item.reason.padEnd(16)}  ${item.city}/${item.programId}  ${item.tierNow} -> ${item.tierWithout}`);
  const counts = DUE_REASONS.filter((reason) => queue.counts[reason] > 0).map((reason) => `${reason} ${queue.counts[reason]}`).join(', ');
  lines.push(`${queue.due.length} records due at ${queue.at} (within ${queue.withinDays} days)${counts === '' ? '' : `: ${counts}`}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Checks `--at` and `--within-days` before the corpus is read, and returns the queue's options for a
 * corpus (`--at` defaults to its manifest's asOf): `reviews due` and `reviews export --due` share them.
 */
export function readDueFlags(flags: Pick<ReviewsDueFlags, 'at' | 'withinDays'>): (corpus: Corpus) => DueReviewOptions {
  if (flags.at !== undefined && !isCalendarDate(flags.at)) throw new CliFailure(`--at ${JSON.stringify(flags.at)}: must be a date such as 2026-11-01`);
  const withinDays = flags.withinDays === undefined ? DEFAULT_DUE_WITHIN_DAYS : Number(flags.withinDays);
  if (!Number.isInteger(withinDays) || withinDays < 0 || withinDays > 3650) throw new CliFailure(`--within-days ${JSON.stringify(flags.withinDays)}: must be a whole number of days from 0 to 3650`);
  return (corpus) => ({ at: flags.at ?? corpus.manifest.asOf, withinDays });
}
