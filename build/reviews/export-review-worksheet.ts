/**
 * The rows of a person's review worksheet: for each chosen record, its latest archived page (the one a
 * review would rest on) and the passages the model reviewer would be shown, from the same visible text.
 */
import type { LinkCheck } from '../corpus/corpus-types.ts';
import { archivedPageForRecord, type ResponseReader } from './archived-page-for-record.ts';
import { pageVisibleText, type ExtractVisibleText } from './page-visible-text.ts';
import { joinPassages, type ReviewRow } from './review-worksheet.ts';
import type { ReviewTarget } from './review-targets.ts';
import { selectPassages } from './select-passages.ts';

/** What the export reads: the link checks (which name the archived pages), the archive and the extraction. */
export interface ReviewExportSources {
  linkChecks: readonly LinkCheck[];
  archive: ResponseReader;
  extract: ExtractVisibleText;
}

/** A record the worksheet could not offer a page for, and why (it needs a links check first). */
export interface ReviewExportGap {
  city: string;
  programId: string;
  reason: string;
}

/**
 * One row per target, in the order given. A record with no archived page still gets its row, with the
 * page cells empty, so the sheet lists every record asked for; import refuses a verdict on such a row.
 */
export async function exportReviewRows(targets: readonly ReviewTarget[], sources: ReviewExportSources): Promise<{ rows: ReviewRow[]; gaps: ReviewExportGap[] }> {
  const rows: ReviewRow[] = [];
  const gaps: ReviewExportGap[] = [];
  for (const target of targets) {
    const row: ReviewRow = { city: target.city, programId: target.programId, url: target.url, warcRecordId: '', passages: '', identity: '', amountQuote: '', statedAmount: '', note: '' };
    const page = await archivedPageForRecord(target.url, sources.linkChecks, sources.archive);
    if (page.kind === 'none') gaps.push({ city: target.city, programId: target.programId, reason: page.reason });
    else {
      row.warcRecordId = page.warcRecordId;
      const text = await pageVisibleText(page.page, sources.extract);
      if (text.kind === 'none') gaps.push({ city: target.city, programId: target.programId, reason: `no visible text in ${page.warcRecordId}: ${text.reason}` });
      else row.passages = joinPassages(selectPassages(text.text, target.name).passages);
    }
    rows.push(row);
  }
  return { rows, gaps };
}
