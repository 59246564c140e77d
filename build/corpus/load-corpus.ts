/** Loads a corpus folder, validating every file and every cross-file rule, and reports all problems at once. */
import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { CorpusInvalidError, type CorpusProblem } from './corpus-problem.ts';
import type { Corpus, Correction, Manifest, ReportArtifact, Vocabularies } from './corpus-types.ts';
import { NATIONAL_SLUG } from '../contract/national-slug.ts';
import { REPORT_NAMES, type ReportName } from '../contract/report-artifact-schema.ts';
import { API_VERSION } from '../contract/api-version.ts';
import { checkContractVersion } from './check-contract-version.ts';
import { checkFactAuditSummary } from './check-fact-audit-summary.ts';
import { checkPublicBaseUrl } from './check-public-base-url.ts';
import { checkCorpusReferences } from './check-corpus-references.ts';
import { checkLinkOutcomes } from './check-link-outcomes.ts';
import { QUOTE_CHECKS_FILE } from './quote-checks-file.ts';
import type { LocatedCorrection } from './check-program-row.ts';
import { checkProgramFilesHere, createProgramFileCheck, type ProgramFileChecker, type ProgramFileRules, type ProgramFileToCheck } from './check-program-file.ts';
import { readJsonDocument, readNdjson } from './read-corpus-file.ts';
import { corpusValidator } from './corpus-validators.ts';
import { describeFailures } from './schema-validator.ts';

// Kept importable from here for its many readers; it lives apart so a module that only re-reads rows (the
// build's serialization) need not load the loader.
export { readCityPrograms } from './read-city-programs.ts';

/** Options for loadCorpus. */
export interface LoadCorpusOptions {
  /** Receives one line per stage, for progress on stderr. */
  onProgress?: (message: string) => void;
  /**
   * How problems name the corpus folder, e.g. the path a user typed (`bad`, `/srv/corpus`); files are named
   * `<displayRoot>/<file>`. Default: the folder's own name.
   */
  displayRoot?: string;
  /**
   * Checks the cities' program files; by default on this thread. A build passes its worker threads, which
   * check each file in the read that digests it (build/snapshot/city-worker-pool.ts).
   */
  programFileChecker?: ProgramFileChecker;
}

/** Loads and validates the corpus in `dir`; throws CorpusInvalidError listing every problem. */
export function loadCorpus(dir: string, options: LoadCorpusOptions = {}): Corpus {
  const root = resolve(dir);
  const label = options.displayRoot === undefined ? basename(root) : options.displayRoot.replace(/(?<=.)\/+$/, '');
  const at = (relative: string) => ({ absolute: join(root, relative), file: `${label}/${relative}` });
  // Files are read in the order that lets the program files' checks start soonest (they need the
  // vocabularies, the cities and the corrections); problems are listed in the corpus's order all the same
  // (corpus files, then program files, then cross-file rules), each part collected apart and joined at the end.
  const ownProblems = {
    documents: [] as CorpusProblem[], cities: [] as CorpusProblem[], evidence: [] as CorpusProblem[], corrections: [] as CorpusProblem[],
    later: [] as CorpusProblem[], programs: [] as CorpusProblem[], references: [] as CorpusProblem[],
  };

  const documentLines = new Map<string, (instancePath: string) => number>();
  const readDocument = <T>(relative: string, validate: ValidateFunction, problems: CorpusProblem[]): T | undefined => {
    const { absolute, file } = at(relative);
    const document = readJsonDocument(absolute, root, file, problems);
    if (!document) return undefined;
    documentLines.set(relative, document.lineOf);
    const failures = describeFailures(validate, document.value);
    for (const failure of failures) {
      problems.push({ file, line: document.lineOf(failure.instancePath), path: failure.path, message: failure.message });
    }
    return failures.length === 0 ? (document.value as T) : undefined;
  };

  const lines = new Map<object, number>();
  const readRows = <T extends object>(relative: string, validate: ValidateFunction, required: boolean, problems: CorpusProblem[], onAny?: (value: Record<string, unknown>) => void): T[] => {
    const { absolute, file } = at(relative);
    const before = problems.length;
    const parsed = readNdjson(absolute, root, file, problems);
    // An optional file that does not exist is an empty list, not a problem.
    if (!required && problems.length === before + 1 && problems[before]?.message === 'file is missing') problems.pop();
    const rows: T[] = [];
    for (const { value, line, canonical } of parsed) {
      onAny?.(value as Record<string, unknown>);
      if (!canonical) continue;
      const failures = describeFailures(validate, value);
      for (const failure of failures) problems.push({ file, line, path: failure.path, message: failure.message });
      if (failures.length === 0) {
        rows.push(value as T);
        lines.set(value as object, line);
      }
    }
    return rows;
  };

  const manifest = readDocument<Manifest>('manifest.json', corpusValidator('manifest'), ownProblems.documents);
  if (manifest) {
    const lineOf = documentLines.get('manifest.json') ?? (() => 0);
    checkContractVersion(manifest, API_VERSION, { file: at('manifest.json').file, lineOf }, ownProblems.documents);
    checkPublicBaseUrl(manifest, { file: at('manifest.json').file, lineOf }, ownProblems.documents);
  }
  const vocabularies = readDocument<Vocabularies>('vocabularies.json', corpusValidator('vocabularies'), ownProblems.documents);
  // A city row with a bad field still names its city: keep its slug so one typo does not cascade into
  // "no city" problems in every file that refers to it.
  const knownCities = new Map<string, unknown>();
  const cities = readRows<Corpus['cities'][number]>('cities.ndjson', corpusValidator('cityRow'), true, ownProblems.cities, (value) => {
    if (typeof value.slug === 'string') knownCities.set(value.slug, value.status);
  });
  const corrections = readRows<Correction>('corrections.ndjson', corpusValidator('correction'), false, ownProblems.corrections);

  // Rows are checked even when vocabularies.json is invalid (against the schema only), so that one bad
  // file does not hide the problems of every other.
  const rules: ProgramFileRules = { vocabularies, correctionsFile: `${label}/corrections.ndjson` };
  const correctionsByCity = new Map<string, LocatedCorrection[]>();
  for (const correction of corrections) {
    const located = { correction, line: lines.get(correction) ?? 0 };
    const list = correctionsByCity.get(correction.city);
    if (list) list.push(located);
    else correctionsByCity.set(correction.city, [located]);
  }
  const toCheck = (slug: string, relative: string): ProgramFileToCheck =>
    ({ slug, path: at(relative).absolute, root, file: at(relative).file, corrections: correctionsByCity.get(slug) ?? [] });
  const checkHere = createProgramFileCheck(rules);
  // Every program file of a known city, in name order; a file of no city is reported, not read.
  const programFiles = new Map<string, string>();
  const listed: Array<{ name: string; checked: boolean }> = [];
  const listProblems: CorpusProblem[] = [];
  for (const name of listProgramFiles(root, label, listProblems)) {
    const slug = name.slice(0, -'.ndjson'.length);
    const checked = knownCities.has(slug);
    if (checked) programFiles.set(slug, join(root, 'programs', name));
    listed.push({ name, checked });
  }
  const checking = (options.programFileChecker ?? checkProgramFilesHere(checkHere))
    .checkFiles([...programFiles.keys()].map((slug) => toCheck(slug, `programs/${slug}.ndjson`)), rules);

  const adjacentRules = readRows<Corpus['adjacentRules'][number]>('policy/adjacent-scope.ndjson', corpusValidator('adjacentRule'), false, ownProblems.evidence);
  const quarantine = readRows<Corpus['quarantine'][number]>('policy/quarantine.ndjson', corpusValidator('quarantineEntry'), false, ownProblems.evidence);
  const linkChecks = readRows<Corpus['linkChecks'][number]>('evidence/link-checks.ndjson', corpusValidator('linkCheck'), false, ownProblems.evidence);
  checkLinkOutcomes(linkChecks, { file: at('evidence/link-checks.ndjson').file, lineOf: (row) => lines.get(row) ?? 0 }, ownProblems.evidence);
  const sourceReviews = readRows<Corpus['sourceReviews'][number]>('evidence/source-reviews.ndjson', corpusValidator('sourceReview'), false, ownProblems.evidence);
  const quoteChecks = readRows<Corpus['quoteChecks'][number]>(QUOTE_CHECKS_FILE, corpusValidator('quoteCheck'), false, ownProblems.evidence);
  const changes = readRows<Corpus['changes'][number]>('changes.ndjson', corpusValidator('changeEventRow'), false, ownProblems.later);
  const reports = readReports(root, label, corpusValidator('reportArtifact'), ownProblems.later);
  options.onProgress?.(`corpus: read ${cities.length} cities, ${linkChecks.length} link checks, ${sourceReviews.length} reviews, ${quoteChecks.length} quote checks`);

  const programIds = new Map<string, Set<string>>();
  const national = checkHere(toCheck(NATIONAL_SLUG, 'national.ndjson'));
  programIds.set(NATIONAL_SLUG, new Set(national.ids));
  ownProblems.programs.push(...national.problems, ...listProblems);
  {
    const facts = checking[Symbol.iterator]();
    let rowCount = 0;
    for (const { name, checked } of listed) {
      const slug = name.slice(0, -'.ndjson'.length);
      if (!checked) {
        ownProblems.programs.push({ file: `${label}/programs/${name}`, line: 0, path: '$', message: `no city ${JSON.stringify(slug)} in cities.ndjson` });
        continue;
      }
      const next = facts.next();
      if (next.done) throw new Error(`the program file checker answered no facts for ${name}`);
      for (const problem of next.value.problems) ownProblems.programs.push(problem);
      programIds.set(slug, new Set(next.value.ids));
      rowCount += next.value.ids.length;
    }
    if (!facts.next().done) throw new Error('the program file checker answered more files than it was given');
    options.onProgress?.(`corpus: validated ${rowCount} program rows in ${programFiles.size} city files`);
  }

  if (manifest && vocabularies) {
    checkCorpusReferences(
      { manifest, vocabularies, cities, national: national.rows, programIds, quarantine, sourceReviews, quoteChecks, corrections, changes },
      { label, lineOf: (row) => lines.get(row) ?? 0, manifestLineOf: documentLines.get('manifest.json') ?? (() => 0), knownCities },
      ownProblems.references,
    );
  }
  const { documents, cities: cityProblems, evidence, corrections: correctionProblems, later, programs, references } = ownProblems;
  const problems = [...documents, ...cityProblems, ...evidence, ...correctionProblems, ...later, ...programs, ...references];
  if (problems.length > 0 || !manifest || !vocabularies) throw new CorpusInvalidError(problems);
  return {
    root, manifest, cities, programFiles, programIds, national: national.rows, adjacentRules, quarantine, linkChecks,
    sourceReviews, quoteChecks, corrections, vocabularies, changes, reports,
  };
}

function listProgramFiles(root: string, label: string, problems: CorpusProblem[]): string[] {
  let names: string[];
  try {
    names = readdirSync(join(root, 'programs'));
  } catch {
    problems.push({ file: `${label}/programs`, line: 0, path: '$', message: 'folder is missing' });
    return [];
  }
  const files = names.filter((name) => name.endsWith('.ndjson')).sort();
  for (const name of names) {
    if (!name.endsWith('.ndjson')) problems.push({ file: `${label}/programs/${name}`, line: 0, path: '$', message: 'not an .ndjson program file' });
  }
  return files;
}

function readReports(root: string, label: string, validate: ValidateFunction, problems: CorpusProblem[]): Corpus['reports'] {
  const reports: Partial<Record<ReportName, ReportArtifact>> = {};
  let names: string[] = [];
  try {
    names = readdirSync(join(root, 'reports'));
  } catch {
    return reports; // every report may be absent
  }
  for (const name of names.sort()) {
    const file = `${label}/reports/${name}`;
    const reportName = name.replace(/\.json$/, '');
    if (!name.endsWith('.json') || !(REPORT_NAMES as readonly string[]).includes(reportName)) {
      problems.push({ file, line: 0, path: '$', message: `not a known report (expected one of ${REPORT_NAMES.map((n) => `${n}.json`).join(', ')})` });
      continue;
    }
    const document = readJsonDocument(join(root, 'reports', name), root, file, problems);
    if (!document) continue;
    const failures = describeFailures(validate, document.value);
    for (const failure of failures) problems.push({ file, line: document.lineOf(failure.instancePath), path: failure.path, message: failure.message });
    if (failures.length > 0) continue;
    const disagreements = reportName === 'fact-audit-latest' ? checkFactAuditSummary(document.value as ReportArtifact) : [];
    for (const { path, message } of disagreements) problems.push({ file, line: document.lineOf(`/${path.slice(2).replaceAll('.', '/')}`), path, message });
    if (disagreements.length === 0) reports[reportName as ReportName] = document.value as ReportArtifact;
  }
  return reports;
}
