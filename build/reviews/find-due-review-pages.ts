/** The pages `links check` reads whole for the review queue: the cited URLs of the records due a review. */
import { visitDueRecords, type DueRecordInputs, type DueReviewOptions } from './visit-due-records.ts';

/** The due records' served URLs, and how many records the queue judged (for the run's progress line). */
export function findDueReviewPages(corpus: DueRecordInputs, options: DueReviewOptions): { urls: Set<string>; judged: number } {
  const urls = new Set<string>();
  const judged = visitDueRecords(corpus, options, (record) => urls.add(record.url));
  return { urls, judged };
}
