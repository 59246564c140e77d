/**
 * The passages a person auditing a record is shown: of the archived page its worksheet rows name, the
 * selection the model reviewer is shown (select-passages.ts), from the quote check's visible text.
 */
import type { LinkCheck } from '../corpus/corpus-types.ts';
import { archivedPageForRecord, type ResponseReader } from '../reviews/archived-page-for-record.ts';
import { pageVisibleText, type ExtractVisibleText } from '../reviews/page-visible-text.ts';
import { joinPassages } from '../reviews/review-worksheet.ts';
import { selectPassages } from '../reviews/select-passages.ts';
import type { FrameRecord } from './read-audit-frame.ts';

/**
 * Passages by `city/programId`. Only a record whose latest archived 2xx page is the record its rows name
 * gets them (a later attempt that was not archived, or failed, leaves the cell empty rather than show
 * another page than the one named).
 */
export async function readAuditPassages(records: readonly FrameRecord[], sources: { linkChecks: readonly LinkCheck[]; archive: ResponseReader; extract: ExtractVisibleText }): Promise<Map<string, string>> {
  const passages = new Map<string, string>();
  for (const record of records) {
    if (record.url === null || record.warcRecordId === undefined) continue;
    const page = await archivedPageForRecord(record.url, sources.linkChecks, sources.archive);
    if (page.kind !== 'archived' || page.warcRecordId !== record.warcRecordId) continue;
    const text = await pageVisibleText(page.page, sources.extract);
    if (text.kind === 'text') passages.set(`${record.city}/${record.programId}`, joinPassages(selectPassages(text.text, record.name).passages));
  }
  return passages;
}
