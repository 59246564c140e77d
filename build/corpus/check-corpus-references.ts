/** Cross-file rules: every reference between corpus files must resolve. */
import type { CorpusProblem } from './corpus-problem.ts';
import type { Corpus, Manifest, Vocabularies } from './corpus-types.ts';
import { NATIONAL_SLUG } from '../contract/national-slug.ts';
import { QUOTE_CHECKS_FILE } from './quote-checks-file.ts';

/** The parts of a corpus the cross-file rules read. */
export type ReferenceInputs = Pick<
  Corpus, 'cities' | 'national' | 'programIds' | 'quarantine' | 'sourceReviews' | 'quoteChecks' | 'corrections' | 'changes'
> & { manifest: Manifest; vocabularies: Vocabularies };

/** How to name a row's file and line in a problem. */
export interface ReferenceLocator {
  label: string;
  lineOf: (row: object) => number;
  /** Line of a JSON path in manifest.json. */
  manifestLineOf: (instancePath: string) => number;
  /** Every city slug named in cities.ndjson, valid row or not, with its stated status. */
  knownCities: ReadonlyMap<string, unknown>;
}

/** The number of maintained federal canonical records spec 4.3 promises on `/api/programs/national`. */
export const FEDERAL_RECORD_COUNT = 4;

/** Appends a problem for every broken cross-file reference. */
export function checkCorpusReferences(inputs: ReferenceInputs, locate: ReferenceLocator, problems: CorpusProblem[]): void {
  const at = (relative: string, row: object, path: string, message: string) =>
    problems.push({ file: `${locate.label}/${relative}`, line: locate.lineOf(row), path, message });

  const seen = new Set<string>();
  for (const city of inputs.cities) {
    if (city.slug === NATIONAL_SLUG) at('cities.ndjson', city, '$.slug', `"${NATIONAL_SLUG}" is reserved for the federal layer`);
    if (seen.has(city.slug)) at('cities.ndjson', city, '$.slug', `duplicate city slug ${JSON.stringify(city.slug)}`);
    seen.add(city.slug);
  }
  const cityStatus = locate.knownCities;

  const manifestFile = `${locate.label}/manifest.json`;
  for (const field of ['defaultCity', 'sampleCity'] as const) {
    const slug = inputs.manifest[field];
    const status = cityStatus.get(slug);
    if (status !== 'live') {
      const message = !cityStatus.has(slug) ? `no city ${JSON.stringify(slug)} in cities.ndjson` : `city ${JSON.stringify(slug)} is ${String(status)}, not live`;
      problems.push({ file: manifestFile, line: locate.manifestLineOf(`/${field}`), path: `$.${field}`, message });
    }
  }

  if (inputs.national.length !== FEDERAL_RECORD_COUNT) {
    problems.push({
      file: `${locate.label}/national.ndjson`, line: 0, path: '$',
      message: `must hold exactly ${FEDERAL_RECORD_COUNT} federal records, found ${inputs.national.length}`,
    });
  }

  const exists = (city: string, programId: string) => inputs.programIds.get(city)?.has(programId) === true;
  const checkRecord = (relative: string, row: { city: string; programId: string }) => {
    if (!exists(row.city, row.programId)) {
      at(relative, row, '$.programId', `no program ${JSON.stringify(row.programId)} in city ${JSON.stringify(row.city)}`);
    }
  };
  for (const entry of inputs.quarantine) checkRecord('policy/quarantine.ndjson', entry);
  for (const review of inputs.sourceReviews) checkRecord('evidence/source-reviews.ndjson', review);
  const amountReviews = new Set(inputs.sourceReviews.filter((r) => r.kind === 'amount').map((r) => `${r.city}\u0000${r.programId}\u0000${r.reviewedAt}`));
  for (const check of inputs.quoteChecks) {
    if (!exists(check.city, check.programId)) checkRecord(QUOTE_CHECKS_FILE, check);
    else if (!amountReviews.has(`${check.city}\u0000${check.programId}\u0000${check.reviewedAt}`)) {
      at(QUOTE_CHECKS_FILE, check, '$.reviewedAt', `no amount review of ${check.city}/${check.programId} dated ${check.reviewedAt} in evidence/source-reviews.ndjson`);
    }
  }
  for (const correction of inputs.corrections) {
    checkRecord('corrections.ndjson', correction);
    if (correction.field === 'id') at('corrections.ndjson', correction, '$.field', 'a record id cannot be corrected');
  }

  const projectTypes = new Set(inputs.vocabularies.projectTypes);
  for (const [alias, target] of Object.entries(inputs.vocabularies.projectAliases)) {
    if (!projectTypes.has(target)) {
      problems.push({ file: `${locate.label}/vocabularies.json`, line: 0, path: `$.projectAliases.${alias}`, message: `${JSON.stringify(target)} is not a project type` });
    }
  }

  let previousId = 0;
  for (const event of inputs.changes) {
    if (event.id <= previousId) at('changes.ndjson', event, '$.id', `ids must increase in file order (${event.id} after ${previousId})`);
    previousId = Math.max(previousId, event.id);
    if (!cityStatus.has(event.city)) at('changes.ndjson', event, '$.city', `no city ${JSON.stringify(event.city)} in cities.ndjson`);
  }
}
