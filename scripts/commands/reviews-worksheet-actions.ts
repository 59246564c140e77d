/**
 * `hra reviews export` and `hra reviews import`: a person's review worksheet, written from the archived
 * pages and read back against them; the import appends every filled row's review, or none.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isChangeTimestamp } from '../../build/changes/is-change-timestamp.ts';
import type { Corpus } from '../../build/corpus/corpus-types.ts';
import { corpusValidator } from '../../build/corpus/corpus-validators.ts';
import { describeFailures } from '../../build/corpus/schema-validator.ts';
import { recordKey } from '../../build/derive/apply-corrections.ts';
import { openAppendOnlyLog } from '../../build/links/append-only-log.ts';
import { checkReviewWorksheet } from '../../build/reviews/check-review-worksheet.ts';
import { exportReviewRows } from '../../build/reviews/export-review-worksheet.ts';
import { findDueReviews } from '../../build/reviews/find-due-reviews.ts';
import { readReviewTargets, type ReviewTarget } from '../../build/reviews/review-targets.ts';
import { REVIEW_COLUMNS } from '../../build/reviews/review-worksheet.ts';
import { readWorksheet, WorksheetError } from '../../build/worksheets/read-worksheet.ts';
import { writeWorksheet } from '../../build/worksheets/write-worksheet.ts';
import { CliFailure, printJson, progress, type CliProblem } from '../cli-failure.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';
import { readDueFlags } from './reviews-due-action.ts';
import { withArchivedPages } from './with-archived-pages.ts';

/** The export's flags as commander hands them over. */
export interface ReviewsExportFlags {
  corpus: string;
  archive?: string;
  out: string;
  only?: string[];
  /** Only the records `reviews due` lists, in its order; `at` and `withinDays` as there. */
  due?: boolean;
  at?: string;
  withinDays?: string;
  json?: boolean;
}

/** The import's flags as commander hands them over (the worksheet is the positional argument). */
export interface ReviewsImportFlags {
  corpus: string;
  archive?: string;
  reviewer: string;
  at?: string;
  json?: boolean;
}

const SOURCE_REVIEWS_FILE = 'evidence/source-reviews.ndjson';

/**
 * Writes the worksheet of the chosen records (`--only`, else every served record citing a URL; with `--due`
 * only those of them the review queue lists, in its order); never overwrites one.
 */
export async function runReviewsExport(flags: ReviewsExportFlags): Promise<void> {
  if (!flags.due && (flags.at !== undefined || flags.withinDays !== undefined)) throw new CliFailure('--at and --within-days choose the review queue: give them with --due');
  const dueOptions = flags.due ? readDueFlags(flags) : undefined;
  if (existsSync(flags.out)) throw new CliFailure(`--out ${flags.out}: already exists (a filled worksheet is never overwritten; choose another file)`);
  const corpus = loadCorpusOrFail(flags.corpus);
  const all = readReviewTargets(corpus);
  let targets = chooseTargets(all, flags.only ?? []);
  if (dueOptions !== undefined) {
    // The queue's own list (the same reasons and staleness rule as `reviews due`), narrowed to --only.
    const chosen = new Set(targets.map((target) => recordKey(target.city, target.programId)));
    targets = findDueReviews(corpus, dueOptions(corpus)).due
      .map((item) => all.get(recordKey(item.city, item.programId)))
      .filter((target): target is ReviewTarget => target !== undefined && chosen.has(recordKey(target.city, target.programId)));
  }
  const { rows, gaps } = await withArchivedPages(corpus, flags.archive, (sources) => exportReviewRows(targets, sources));
  for (const gap of gaps) progress(`reviews export: ${gap.city}/${gap.programId}: ${gap.reason}`);
  try {
    writeFileSync(flags.out, writeWorksheet(REVIEW_COLUMNS, rows), { flag: 'wx' });
  } catch (error) {
    throw new CliFailure(`--out ${flags.out}: cannot be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  progress(`reviews export: ${rows.length} records, ${gaps.length} without an archived page to review; wrote ${flags.out}`);
  if (flags.json) printJson({ ok: true, worksheet: flags.out, records: rows.length, needLinksCheck: gaps });
}

/** Checks every row of `file` and appends all its reviews in one write, or fails naming each problem's row and appends nothing. */
export async function runReviewsImport(file: string, flags: ReviewsImportFlags): Promise<void> {
  if (flags.reviewer.trim() === '') throw new CliFailure('--reviewer: must name the person who filled the worksheet');
  if (flags.at !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(flags.at) && !isChangeTimestamp(flags.at)) throw new CliFailure(`--at ${JSON.stringify(flags.at)}: must be a date such as 2026-11-16 or an ISO 8601 date-time`);
  let rows;
  try {
    rows = readWorksheet(file, file, REVIEW_COLUMNS);
  } catch (error) {
    if (error instanceof WorksheetError) throw new CliFailure(error.message);
    throw error;
  }
  const corpus = loadCorpusOrFail(flags.corpus);
  const reviewedAt = (flags.at ?? new Date().toISOString()).slice(0, 10);
  const checked = await withArchivedPages(corpus, flags.archive, ({ archive, extractor }) =>
    checkReviewWorksheet(rows, { targets: readReviewTargets(corpus), linkChecks: corpus.linkChecks, archive, extract: (page, quotes) => extractor.extract(page, quotes) }, flags.reviewer.trim(), reviewedAt));
  if (checked.problems.length > 0) {
    const listed: CliProblem[] = checked.problems.map(({ row, column, message }) => ({ file, line: row, path: column, message }));
    for (const problem of listed) progress(`${problem.file} row ${problem.line} column ${problem.path}: ${problem.message}`);
    const first = listed[0] as CliProblem;
    throw new CliFailure(`worksheet refused, nothing appended: ${first.file} row ${first.line} column ${first.path}: ${first.message}`, { problems: listed });
  }
  const validate = corpusValidator('sourceReview');
  for (const line of checked.lines) {
    const [failure] = describeFailures(validate, line);
    if (failure !== undefined) throw new CliFailure(`a review line of ${line.city}/${line.programId} does not validate (${failure.path}: ${failure.message}); nothing appended`);
  }
  const log = openAppendOnlyLog(join(corpus.root, SOURCE_REVIEWS_FILE));
  try {
    log.appendRows(checked.lines);
  } finally {
    log.close();
  }
  progress(`reviews import: appended ${checked.lines.length} reviews by ${flags.reviewer.trim()}; ${checked.unsure} unsure and ${checked.unfilled} unfilled rows add none`);
  if (flags.json) printJson({ ok: true, appended: checked.lines.length, unsure: checked.unsure, unfilled: checked.unfilled });
}

function chooseTargets(all: ReadonlyMap<string, ReviewTarget>, only: readonly string[]): ReviewTarget[] {
  if (only.length === 0) return [...all.values()];
  return only.map((name) => {
    const [city, programId, ...rest] = name.split('/');
    const target = city === undefined || programId === undefined || rest.length > 0 ? undefined : all.get(recordKey(city, programId));
    if (target === undefined) throw new CliFailure(`--only ${name}: not a served record citing a URL (give <city>/<programId>)`);
    return target;
  });
}
