/** The actions of the corpus and snapshot commands (corpus-commands.ts registers them). */
import type { Corpus } from '../../build/corpus/corpus-types.ts';
import type { ArchivedEvidenceReport } from '../../build/archive/verify-archived-evidence.ts';
import { NATIONAL_SLUG } from '../../build/contract/national-slug.ts';
import { countHandTypedQuotes } from '../../build/links/count-hand-typed-quotes.ts';
import { computeRevision } from '../../build/revision/compute-revision.ts';
import { buildAndPublishInterruptibly } from '../../build/snapshot/publish-snapshot.ts';
import { startBuildWorkersAhead } from '../../build/snapshot/start-build-workers-ahead.ts';
import { verifySnapshot } from '../../build/snapshot/verify-snapshot.ts';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { plural } from '../plural.ts';
import { abortOnSignals } from './abort-on-signals.ts';
import { requireArchive } from './require-archive.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';
import { requireBuildSources } from './require-build-sources.ts';
import { prepareOutputDirectory, requireFile } from './require-path.ts';
import { loadModules } from '../module-load-failure.ts';

/** `hra validate`: every problem of the corpus, or its counts. */
export function runValidate(options: { corpus: string; json?: boolean }): void {
  const started = Date.now();
  const corpus = loadCorpusOrFail(options.corpus);
  let rows = 0;
  for (const ids of corpus.programIds.values()) rows += ids.size;
  const nationalRows = corpus.programIds.get(NATIONAL_SLUG)?.size ?? 0;
  const cityFiles = corpus.programFiles.size;
  const quotes = countHandTypedQuotes(corpus);
  const summary = {
    ok: true, cities: corpus.cities.length, rows, cityRows: rows - nationalRows, nationalRows,
    amountQuotes: quotes.amountQuotes, quotesChecked: quotes.checked, quotesHandTyped: quotes.handTyped, seconds: (Date.now() - started) / 1000,
  };
  if (options.json) printJson(summary);
  else {
    // The same count as the loader's "validated N program rows in M city files" line, plus the national rows.
    process.stdout.write(`corpus is valid: ${plural(summary.cities, 'city', 'cities')}, ${plural(rows, 'program row')} ` +
      `(${summary.cityRows} in ${plural(cityFiles, 'city file')}, ${nationalRows} national) in ${summary.seconds.toFixed(2)} s\n` +
      `amount quotes served: ${quotes.amountQuotes}; ${quotes.checked} decided by a quote check, ` +
      `${quotes.handTyped} never checked mechanically (their hand-typed quoteFoundInPage is served; hra links check checks them)\n`);
  }
}

/** `hra digest`: the revision the corpus would build to. */
export function runDigest(options: { corpus: string; json?: boolean }): void {
  requireBuildSources();
  const { revision, document } = computeRevision(loadCorpusOrFail(options.corpus));
  if (options.json) printJson({ ok: true, revision, document });
  else process.stdout.write(`${revision}\n`);
}

/** `hra build`: the corpus compiled and published under `--out`. */
export async function runBuild(options: { corpus: string; out: string; json?: boolean }): Promise<void> {
  requireBuildSources();
  const removeCreatedFolders = prepareOutputDirectory('--out', options.out);
  // Started before the load, which has them check and digest the program files beside it (on the other cores).
  const cityWorkers = startBuildWorkersAhead(options.corpus);
  const published = await (async () => {
    let corpus;
    try {
      corpus = loadCorpusOrFail(options.corpus, '--corpus', cityWorkers);
    } catch (error) {
      cityWorkers?.close();
      throw error;
    }
    return abortOnSignals('build', (signal) => buildAndPublishInterruptibly(corpus, options.out, signal, progress, { cityWorkers }));
  })().catch((error: unknown) => {
    // A failed build writes nothing, not even the output folder it made for itself.
    removeCreatedFolders();
    throw asPublishFailure(error, options.out);
  });
  if (options.json) printJson({ ok: true, revision: published.revision, file: published.file, ...published.summary });
  else process.stdout.write(`${published.revision}\n`);
}

/** `hra verify`: the snapshot checked against the corpus (and the archive with `--archive`). */
export async function runVerify(file: string, options: { corpus: string; archive?: string; json?: boolean }): Promise<void> {
  requireBuildSources();
  requireFile('verify <file>', file, 'snapshot file');
  if (options.archive !== undefined) requireArchive(options.archive);
  const corpus = loadCorpusOrFail(options.corpus);
  const results = verifySnapshot(file, corpus, progress);
  const failed = results.find((result) => !result.ok);
  if (failed && !failed.ok) throw new CliFailure(`verify failed: ${file}: ${failed.check}: ${failed.reason}`, { details: { checks: results } });
  const archive = options.archive === undefined ? undefined : await verifyArchive(options.archive, options.corpus, corpus, results);
  if (options.json) printJson({ ok: true, checks: results, ...(archive === undefined ? {} : { archive }) });
  else process.stdout.write(`verified: ${results.map((result) => result.check).join(', ')}${archive === undefined ? '' : ', archive'}\n`);
}

/** The `--archive` check of `hra verify`: each record missing or wrong on its own stderr line, then one failure line. */
async function verifyArchive(archive: string, corpus: string, loaded: Corpus, checks: unknown): Promise<ArchivedEvidenceReport> {
  // Loaded only when asked for: the other corpus commands never read an archive (scripts/hra.ts).
  const [{ verifyArchivedEvidence }, { EvidenceLineError }, { ArchiveIndexError }] = await loadModules(() => Promise.all([
    import('../../build/archive/verify-archived-evidence.ts'), import('../../build/archive/read-evidence-references.ts'),
    import('../../build/archive/open-archive-index-for-reading.ts'),
  ]));
  const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus, corpus: loaded, progress }).catch((error: unknown) => {
    const bad = error instanceof EvidenceLineError || error instanceof ArchiveIndexError;
    throw bad ? new CliFailure(`verify failed: ${archive}: archive: ${error.message}`, { details: { checks } }) : error;
  });
  progress(`archive: ${plural(report.lines, 'evidence line')}, ${report.archived} name a record (${plural(report.records, 'record')}, ` +
    `${plural(report.payloadsHashed, 'payload')} hashed), ${report.notArchived} not archived, ${report.replacedAndPruned} pruned`);
  progress(`archive: ${plural(report.reviewLines, 'review line')} naming a page (${report.reviewExchanges} with a model exchange), ${plural(report.auditRows, 'audit row')} naming a record`);
  for (const problem of report.problems) progress(problem);
  if (report.problems.length > 0) {
    throw new CliFailure(`verify failed: ${archive}: archive: ${plural(report.problems.length, 'record')} missing or wrong (listed above)`, { details: { checks, archive: report } });
  }
  return report;
}

/** A file-system failure while publishing (a rename refused, a full disk) names the output directory; the build removed what it wrote. */
function asPublishFailure(error: unknown, out: string): unknown {
  const system = error as NodeJS.ErrnoException;
  if (error instanceof Error && typeof system.code === 'string' && typeof system.syscall === 'string') {
    return new CliFailure(`--out ${out}: build failed and published nothing: ${error.message}`);
  }
  return error;
}
