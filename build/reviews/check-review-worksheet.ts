/**
 * Checks a person's filled review worksheet against the corpus and the archive, and turns each filled row
 * into a review line with `reviewer: {kind: "person", name}`. Every row is checked before any line is
 * made: an unknown record, an edited tool cell, a bad verdict, a page archived since the export, and an
 * amount quote the archived page's visible text does not hold (the quote check's own matcher) or that does
 * not state its amount. Empty rows are left unreviewed; `unsure` adds no review, as a model's does not.
 */
import type { ExtractText } from '../links/check-quotes.ts';
import type { LinkCheck, SourceReview } from '../corpus/corpus-types.ts';
import { recordKey } from '../derive/apply-corrections.ts';
import type { WorksheetRow } from '../worksheets/read-worksheet.ts';
import type { WorksheetProblem } from '../audit/check-audit-worksheet.ts';
import { archivedPageForRecord, type ResponseReader } from './archived-page-for-record.ts';
import { quoteStatesAmount } from './quote-states-amount.ts';
import { REVIEW_IDENTITIES, type REVIEW_COLUMNS } from './review-worksheet.ts';
import type { ReviewTarget } from './review-targets.ts';

/** What the check reads besides the sheet. */
export interface ReviewImportSources {
  targets: ReadonlyMap<string, ReviewTarget>;
  linkChecks: readonly LinkCheck[];
  archive: ResponseReader;
  extract: ExtractText;
}

/** The lines to append (none when any problem was found), the problems, and the rows that add no review. */
export interface ReviewImport {
  lines: SourceReview[];
  problems: WorksheetProblem[];
  unfilled: number;
  unsure: number;
}

// A dollar figure as a person types it: 5000, 5,000, $5,000.50.
const AMOUNT = /^\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;

/** Checks every row; `reviewedAt` (YYYY-MM-DD) and `reviewer` go into every line. */
export async function checkReviewWorksheet(rows: readonly WorksheetRow<(typeof REVIEW_COLUMNS)[number]>[], sources: ReviewImportSources, reviewer: string, reviewedAt: string): Promise<ReviewImport> {
  const problems: WorksheetProblem[] = [];
  const lines: SourceReview[] = [];
  const seen = new Map<string, number>();
  let unfilled = 0;
  let unsure = 0;
  for (const { row, cells } of rows) {
    const problem = (column: string, message: string) => problems.push({ row, column, message });
    const key = recordKey(cells.city, cells.programId);
    const target = sources.targets.get(key);
    if (target === undefined) {
      problem('programId', `${cells.city}/${cells.programId} is not a served record of the corpus (an unknown record, or an edited city or programId)`);
      continue;
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problem('programId', `${cells.city}/${cells.programId} repeats row ${earlier}`);
      continue;
    }
    seen.set(key, row);
    if (cells.url !== target.url) problem('url', `edited: the record cites ${JSON.stringify(target.url)}, found ${JSON.stringify(cells.url)}`);
    const identity = cells.identity.trim();
    const quote = cells.amountQuote.trim();
    const stated = cells.statedAmount.trim();
    if (identity === '' && quote === '' && stated === '') {
      unfilled += 1;
      continue;
    }
    if (!(REVIEW_IDENTITIES as readonly string[]).includes(identity)) {
      problem('identity', `must be one of ${REVIEW_IDENTITIES.join(', ')}, found ${JSON.stringify(cells.identity)}`);
      continue;
    }
    if (identity === 'unsure') {
      unsure += 1;
      continue;
    }
    if (stated !== '' && quote === '') problem('statedAmount', 'a stated amount needs the amountQuote that states it');
    if (quote !== '' && identity !== 'match') problem('amountQuote', 'an amount quote needs identity match: a page that is not the program states nothing about it');
    if (quote !== '' && !AMOUNT.test(stated)) problem('statedAmount', `must be the dollar amount the quote states, such as 5000, found ${JSON.stringify(cells.statedAmount)}`);
    const page = await archivedPageForRecord(target.url, sources.linkChecks, sources.archive);
    if (page.kind === 'none') {
      problem('warcRecordId', page.reason);
      continue;
    }
    if (cells.warcRecordId !== page.warcRecordId) {
      problem('warcRecordId', `the record's latest archived page is ${page.warcRecordId}, the worksheet shows ${JSON.stringify(cells.warcRecordId)} (a page archived since the export, or an edited cell: export again)`);
      continue;
    }
    let amountReview = false;
    if (quote !== '' && identity === 'match' && AMOUNT.test(stated)) {
      const amount = Number(stated.replace(/[$,]/g, ''));
      const acceptance = await quoteStatesAmount(page.page, quote, amount, sources.extract);
      if (acceptance.kind === 'inconclusive') problem('amountQuote', `the archived page ${page.warcRecordId} cannot settle it: ${acceptance.reason}`);
      else if (!acceptance.found) problem('amountQuote', `not found in the visible text of the archived page ${page.warcRecordId}`);
      else if (!acceptance.statesAmount) problem('amountQuote', `does not state ${stated}`);
      else amountReview = true;
    }
    lines.push({
      city: target.city,
      programId: target.programId,
      reviewedAt,
      kind: amountReview ? 'amount' : 'identity',
      identityMatch: identity === 'match',
      ...(amountReview ? { amountQuote: quote, quoteFoundInPage: true } : {}),
      reviewer: { kind: 'person', name: reviewer },
      warcRecordId: page.warcRecordId,
      payloadSha256: page.payloadSha256,
    } as SourceReview);
  }
  return { lines: problems.length === 0 ? lines : [], problems, unfilled, unsure };
}
