/**
 * Builds small evidence archives for the archive-check tests with the archive's own writer: weekly runs of
 * fetched pages (one writer, so one WARC file, per run) and the evidence lines that name their records.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openArchiveWriter, type ArchivedExchange } from '../../build/archive/open-archive-writer.ts';

/** One page fetched in a run: its URL and body; `hops` redirects archived before it (named by no line). */
export interface FixturePage {
  url: string;
  body: string;
  hops?: number;
  /** Also append a quote-check line on this page (a conclusive `found`), of this review when given. */
  quote?: boolean | { reviewedAt: string; quoteSha256: string };
}

/** Writes one run's exchanges at `date` into `archiveDir` and appends their evidence lines to `corpusDir`. */
export async function archiveRun(archiveDir: string, corpusDir: string, date: Date, pages: readonly FixturePage[], pid = 4000): Promise<ArchivedExchange[]> {
  const writer = await openArchiveWriter({ archiveDir, now: () => date, pid, isProcessAlive: () => false });
  const archived: ArchivedExchange[] = [];
  try {
    for (const page of pages) {
      for (let hop = 0; hop < (page.hops ?? 0); hop++) {
        await writer.writeExchange(exchangeOf(`${page.url}?hop=${hop}`, date, `redirect ${hop} of ${page.url}`, 302));
      }
      const done = await writer.writeExchange(exchangeOf(page.url, date, page.body, 200));
      archived.push(done);
      const checkedAt = date.toISOString().slice(0, 10);
      appendLine(corpusDir, 'evidence/link-checks.ndjson', { url: page.url, checkedAt, outcome: 'live', httpStatus: 200, pageClass: 'program', warcRecordId: done.responseRecordId, payloadSha256: done.payloadSha256 });
      if (page.quote) {
        appendLine(corpusDir, 'evidence/quote-checks.ndjson', {
          city: 'alpha', programId: 'alpha-roof', reviewedAt: '2026-01-05', quoteSha256: 'a'.repeat(64), ...(page.quote === true ? {} : page.quote), url: page.url, finalUrl: page.url,
          checkedAt, outcome: 'found', contentType: 'text/html', textLength: page.body.length, textSha256: 'b'.repeat(64),
          warcRecordId: done.responseRecordId, payloadSha256: done.payloadSha256,
        });
      }
    }
  } finally {
    await writer.close();
  }
  return archived;
}

/** Appends an evidence line without archive fields ("not archived"). */
export function appendUnarchivedLine(corpusDir: string, url: string, checkedAt: string): void {
  appendLine(corpusDir, 'evidence/link-checks.ndjson', { url, checkedAt, outcome: 'dead', httpStatus: 404 });
}

function appendLine(corpusDir: string, file: string, row: Record<string, unknown>): void {
  mkdirSync(join(corpusDir, 'evidence'), { recursive: true });
  appendFileSync(join(corpusDir, file), `${JSON.stringify(row)}\n`);
}

function exchangeOf(url: string, date: Date, body: string, status: number) {
  return {
    targetUri: url, date, ipAddress: '127.0.0.1',
    request: { method: 'GET', headers: [['User-Agent', 'hra-test']] as Array<[string, string]> },
    response: { status, headers: [['Content-Type', 'text/html']] as Array<[string, string]>, payload: Buffer.from(body) },
  };
}
