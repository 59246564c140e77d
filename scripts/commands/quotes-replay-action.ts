/** The `hra quotes replay` action: re-derives the archived verdicts of a corpus offline, then verifies or appends. */
import { ArchiveIndexError } from '../../build/archive/open-archive-index-for-reading.ts';
import { isDigestFailure } from '../../build/archive/open-archived-responses.ts';
import { ArchiveRecordError } from '../../build/archive/read-archived-record.ts';
import { replayArchivedVerdicts, type ReplayDifference, type ReplayReport } from '../../build/archive/replay-archived-verdicts.ts';
import { defaultArchiveDir } from '../../build/archive/warc-archive-layout.ts';
import { QUOTE_CHECKS_FILE } from '../../build/corpus/quote-checks-file.ts';
import { openAppendOnlyLog } from '../../build/links/append-only-log.ts';
import { createPageTextExtractor, DEFAULT_EXTRACT_CHILDREN } from '../../build/quotes/create-page-text-extractor.ts';
import { EXTRACTOR_VERSION } from '../../build/quotes/extractor-version.ts';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { isCalendarDate } from './is-calendar-date.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';
import { openArchiveOrFail } from './open-archive-or-fail.ts';
import { requireDirectory } from './require-path.ts';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** The flags as commander hands them over. */
export interface QuotesReplayFlags {
  corpus: string;
  archive?: string;
  since?: string;
  verify?: boolean;
  json?: boolean;
}

/**
 * Runs `hra quotes replay`. `--verify` prints the count line and one line per difference, and fails when
 * any verdict differs; otherwise the differing quote checks are appended as re-derived lines.
 */
export async function runQuotesReplay(flags: QuotesReplayFlags): Promise<void> {
  if (flags.since !== undefined && !isCalendarDate(flags.since)) throw new CliFailure(`--since ${JSON.stringify(flags.since)}: must be a date such as 2026-11-01`);
  const archiveDir = flags.archive ?? defaultArchiveDir(flags.corpus);
  const corpus = loadCorpusOrFail(flags.corpus);
  requireDirectory('--archive', archiveDir, 'archive directory');
  const archive = openArchiveOrFail(archiveDir);
  // The weekly run's extraction: the same children, time and memory limits, and pages in flight.
  const extractor = createPageTextExtractor();
  const stopOnSignal = (signal: NodeJS.Signals) => {
    void extractor.close();
    process.kill(process.pid, signal);
  };
  for (const signal of STOP_SIGNALS) process.once(signal, stopOnSignal);
  let report: ReplayReport;
  const started = performance.now();
  try {
    report = await replayArchivedVerdicts({
      corpus,
      ...(flags.since === undefined ? {} : { since: flags.since }),
      readResponse: (recordId) => archive.read(recordId),
      isDigestFailure,
      isIndexed: (recordId) => archive.isIndexed(recordId),
      redirectsReach: (fromUrl, toUri, notAfter) => archive.redirectsReach(fromUrl, toUri, notAfter),
      extract: (page, quotes) => extractor.extract(page, quotes),
      extractorVersion: EXTRACTOR_VERSION,
      concurrency: 2 * DEFAULT_EXTRACT_CHILDREN,
      progress,
    });
  } catch (error) {
    // A record that cannot be read at all (missing, torn, not WARC) is bad input, not a difference.
    if (error instanceof ArchiveRecordError) throw new CliFailure(`--archive ${archiveDir}: ${error.message}`);
    if (error instanceof ArchiveIndexError) throw new CliFailure(`--archive ${error.message}`);
    throw error;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, stopOnSignal);
    await extractor.close();
    archive.close();
  }
  progress(`replay: ${report.checked} verdicts re-derived in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const note of report.notes) progress(`replay: ${note}`);
  if (report.pruned > 0) progress(`replay: ${report.pruned} verdicts pruned (their records are gone from the archive, and a later archived line replaces each one), not re-derived`);

  const counts = { checked: report.checked, match: report.matched, differ: report.differences.length, pruned: report.pruned };
  const unreadable = report.differences.filter((difference) => difference.rederived.startsWith('nothing:'));
  let appended = 0;
  if (!flags.verify && report.rederived.length > 0) {
    const file = `${corpus.root}/${QUOTE_CHECKS_FILE}`;
    try {
      const log = openAppendOnlyLog(file);
      try {
        for (const line of report.rederived) {
          log.appendRow(line);
          appended += 1;
        }
      } finally {
        log.close();
      }
    } catch (error) {
      throw new CliFailure(`${QUOTE_CHECKS_FILE}: cannot be appended to after ${appended} re-derived lines (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  const differences = report.differences.map(describeDifference);
  if (flags.json) {
    const result = { ...counts, ...(flags.verify ? {} : { appended }), differences: report.differences };
    if (flags.verify && counts.differ > 0) throw new CliFailure(failureLine(counts, unreadable), { details: result });
    if (!flags.verify && unreadable.length > 0) throw new CliFailure(failureLine(counts, unreadable), { details: result });
    printJson({ ok: true, ...result });
    return;
  }
  process.stdout.write(`${counts.checked} verdicts checked, ${counts.match} match, ${counts.differ} differ\n`);
  for (const line of differences) process.stdout.write(`${line}\n`);
  if (!flags.verify) process.stdout.write(`${appended} re-derived quote checks appended to ${QUOTE_CHECKS_FILE}\n`);
  if ((flags.verify && counts.differ > 0) || unreadable.length > 0) throw new CliFailure(failureLine(counts, unreadable));
}

/** One difference on one line, naming its record (and file) first. */
function describeDifference(difference: ReplayDifference): string {
  const where = difference.file === undefined ? `record ${difference.recordId}` : `${difference.file} record ${difference.recordId}`;
  const kind = difference.kind === 'link-check' ? 'link check of' : '';
  return `${where}: ${kind ? `${kind} ` : ''}${difference.subject}: recorded ${difference.recorded}, re-derived ${difference.rederived}`;
}

/** The failure's one line: a payload that fails its digest first (naming file and record), else the count. */
function failureLine(counts: { checked: number; differ: number }, unreadable: readonly ReplayDifference[]): string {
  const [first] = unreadable;
  if (first !== undefined) {
    const more = unreadable.length > 1 ? ` (and ${unreadable.length - 1} more verdicts without their bytes)` : '';
    return `${first.file ?? 'archive'} record ${first.recordId}: ${first.rederived.slice('nothing: '.length)}${more}`;
  }
  return `${counts.differ} of ${counts.checked} verdicts differ from what their archived pages give`;
}
