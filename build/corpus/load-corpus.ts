/** Loads a corpus folder, validating every file and every cross-file rule, and reports all problems at once. */
import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { CorpusInvalidError, type CorpusProblem } from './corpus-problem.ts';
import {
  adjacentRuleSchema, changeEventRowSchema, cityRowSchema, correctionSchema, linkCheckSchema, manifestSchema,
  programRowSchema, quarantineEntrySchema, quoteCheckSchema, sourceReviewSchema, vocabulariesSchema,
} from './corpus-schemas.ts';
import type { Corpus, Correction, Manifest, ProgramRow, ReportArtifact, Vocabularies } from './corpus-types.ts';
import { NATIONAL_SLUG } from '../contract/national-slug.ts';
import { REPORT_NAMES, reportArtifactSchema, type ReportName } from '../contract/report-artifact-schema.ts';
import { API_VERSION } from '../contract/api-version.ts';
import { checkContractVersion } from './check-contract-version.ts';
import { checkPublicBaseUrl } from './check-public-base-url.ts';
import { checkCorpusReferences } from './check-corpus-references.ts';
import { checkLinkOutcomes } from './check-link-outcomes.ts';
import { QUOTE_CHECKS_FILE } from './quote-checks-file.ts';
import { checkProgramRow, type ProgramRowContext } from './check-program-row.ts';
import { readJsonDocument, readNdjson } from './read-corpus-file.ts';
import { createAjv, describeFailures } from './schema-validator.ts';
import { indexCorrections, recordKey } from '../derive/apply-corrections.ts';

// Kept importable from here for its many readers; it lives apart so a build worker need not load the validators.
export { readCityPrograms } from './read-city-programs.ts';

/** Options for loadCorpus. */
export interface LoadCorpusOptions {
  /** Receives one line per stage, for progress on stderr. */
  onProgress?: (message: string) => void;
}

/** Loads and validates the corpus in `dir`; throws CorpusInvalidError listing every problem. */
export function loadCorpus(dir: string, options: LoadCorpusOptions = {}): Corpus {
  const root = resolve(dir);
  const label = basename(root);
  const problems: CorpusProblem[] = [];
  const ajv = createAjv();
  const at = (relative: string) => ({ absolute: join(root, relative), file: `${label}/${relative}` });

  const documentLines = new Map<string, (instancePath: string) => number>();
  const readDocument = <T>(relative: string, validate: ValidateFunction): T | undefined => {
    const { absolute, file } = at(relative);
    const document = readJsonDocument(absolute, file, problems);
    if (!document) return undefined;
    documentLines.set(relative, document.lineOf);
    const failures = describeFailures(validate, document.value);
    for (const failure of failures) {
      problems.push({ file, line: document.lineOf(failure.instancePath), path: failure.path, message: failure.message });
    }
    return failures.length === 0 ? (document.value as T) : undefined;
  };

  const lines = new Map<object, number>();
  const readRows = <T extends object>(relative: string, validate: ValidateFunction, required: boolean, onAny?: (value: Record<string, unknown>) => void): T[] => {
    const { absolute, file } = at(relative);
    const before = problems.length;
    const parsed = readNdjson(absolute, file, problems);
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

  const manifest = readDocument<Manifest>('manifest.json', ajv.compile(manifestSchema));
  if (manifest) {
    const lineOf = documentLines.get('manifest.json') ?? (() => 0);
    checkContractVersion(manifest, API_VERSION, { file: at('manifest.json').file, lineOf }, problems);
    checkPublicBaseUrl(manifest, { file: at('manifest.json').file, lineOf }, problems);
  }
  const vocabularies = readDocument<Vocabularies>('vocabularies.json', ajv.compile(vocabulariesSchema));
  // A city row with a bad field still names its city: keep its slug so one typo does not cascade into
  // "no city" problems in every file that refers to it.
  const knownCities = new Map<string, unknown>();
  const cities = readRows<Corpus['cities'][number]>('cities.ndjson', ajv.compile(cityRowSchema), true, (value) => {
    if (typeof value.slug === 'string') knownCities.set(value.slug, value.status);
  });
  const adjacentRules = readRows<Corpus['adjacentRules'][number]>('policy/adjacent-scope.ndjson', ajv.compile(adjacentRuleSchema), false);
  const quarantine = readRows<Corpus['quarantine'][number]>('policy/quarantine.ndjson', ajv.compile(quarantineEntrySchema), false);
  const linkChecks = readRows<Corpus['linkChecks'][number]>('evidence/link-checks.ndjson', ajv.compile(linkCheckSchema), false);
  checkLinkOutcomes(linkChecks, { file: at('evidence/link-checks.ndjson').file, lineOf: (row) => lines.get(row) ?? 0 }, problems);
  const sourceReviews = readRows<Corpus['sourceReviews'][number]>('evidence/source-reviews.ndjson', ajv.compile(sourceReviewSchema), false);
  const quoteChecks = readRows<Corpus['quoteChecks'][number]>(QUOTE_CHECKS_FILE, ajv.compile(quoteCheckSchema), false);
  const corrections = readRows<Correction>('corrections.ndjson', ajv.compile(correctionSchema), false);
  const changes = readRows<Corpus['changes'][number]>('changes.ndjson', ajv.compile(changeEventRowSchema), false);
  const reports = readReports(root, label, ajv.compile(reportArtifactSchema), problems);
  options.onProgress?.(`corpus: read ${cities.length} cities, ${linkChecks.length} link checks, ${sourceReviews.length} reviews, ${quoteChecks.length} quote checks`);

  const programFiles = new Map<string, string>();
  const programIds = new Map<string, Set<string>>();
  const national: ProgramRow[] = [];
  // Rows are checked even when vocabularies.json is invalid (against the schema only), so that one bad
  // file does not hide the problems of every other.
  {
    const correctionsByRecord = indexCorrections(corrections);
    const context: ProgramRowContext = {
      validateRow: ajv.compile(programRowSchema),
      vocabularies,
      correctionLine: (correction) => lines.get(correction) ?? 0,
      correctionsFile: `${label}/corrections.ndjson`,
    };
    const readProgramFile = (slug: string, relative: string, keep?: ProgramRow[]) => {
      const { absolute, file } = at(relative);
      const ids = new Set<string>();
      programIds.set(slug, ids);
      for (const { value, line, canonical } of readNdjson(absolute, file, problems)) {
        const id = (value as { id?: unknown }).id;
        const own = typeof id === 'string' ? (correctionsByRecord.get(recordKey(slug, id)) ?? []) : [];
        // Like city slugs, the id of an invalid row still counts as known (no cascading reference errors).
        if (typeof id === 'string') {
          if (ids.has(id)) problems.push({ file, line, path: '$.id', message: `duplicate program id ${JSON.stringify(id)} in this city` });
          ids.add(id);
        }
        if (canonical && checkProgramRow(value, { file, line }, own, context, problems)) keep?.push(value);
      }
    };
    readProgramFile(NATIONAL_SLUG, 'national.ndjson', national);
    const citySlugs = new Set(knownCities.keys());
    let rowCount = 0;
    for (const name of listProgramFiles(root, label, problems)) {
      const slug = name.slice(0, -'.ndjson'.length);
      if (!citySlugs.has(slug)) {
        problems.push({ file: `${label}/programs/${name}`, line: 0, path: '$', message: `no city ${JSON.stringify(slug)} in cities.ndjson` });
        continue;
      }
      programFiles.set(slug, join(root, 'programs', name));
      readProgramFile(slug, `programs/${name}`);
      rowCount += programIds.get(slug)?.size ?? 0;
    }
    options.onProgress?.(`corpus: validated ${rowCount} program rows in ${programFiles.size} city files`);
  }

  if (manifest && vocabularies) {
    checkCorpusReferences(
      { manifest, vocabularies, cities, national, programIds, quarantine, sourceReviews, quoteChecks, corrections, changes },
      { label, lineOf: (row) => lines.get(row) ?? 0, manifestLineOf: documentLines.get('manifest.json') ?? (() => 0), knownCities },
      problems,
    );
  }
  if (problems.length > 0 || !manifest || !vocabularies) throw new CorpusInvalidError(problems);
  return {
    root, manifest, cities, programFiles, programIds, national, adjacentRules, quarantine, linkChecks,
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
    const document = readJsonDocument(join(root, 'reports', name), file, problems);
    if (!document) continue;
    const failures = describeFailures(validate, document.value);
    for (const failure of failures) problems.push({ file, line: document.lineOf(failure.instancePath), path: failure.path, message: failure.message });
    if (failures.length === 0) reports[reportName as ReportName] = document.value as ReportArtifact;
  }
  return reports;
}
