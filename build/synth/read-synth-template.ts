/**
 * Reads a loaded template corpus into what the synthetic generator samples from: every live row with its
 * evidence, corrections and quarantine entries attached, split into locally unique and shared programs.
 */
import { applyCorrections, indexCorrections, recordKey } from '../derive/apply-corrections.ts';
import { readCityPrograms } from '../corpus/load-corpus.ts';
import type {
  ChangeEventRow, CityRow, Corpus, Correction, LinkCheck, ProgramRow, QuarantineEntry, SourceReview,
} from '../corpus/corpus-types.ts';
import { NATIONAL_SLUG } from '../contract/national-slug.ts';
import { groupBy } from '../derive/group-by.ts';
import { normalizeName } from '../derive/tally-health.ts';

/** One live template row and everything the corpus says about it. */
export interface TemplateRow {
  city: CityRow;
  row: ProgramRow;
  /** The row's maxAmount after its corrections: what an amount review's quote is compared with. */
  effectiveAmount: number | null;
  /** Every link-check attempt of the row's URL. */
  linkChecks: LinkCheck[];
  reviews: SourceReview[];
  corrections: Correction[];
  quarantine: QuarantineEntry[];
}

/** The template corpus as the generator samples it. */
export interface SynthTemplate {
  corpus: Corpus;
  /**
   * Rows whose name is stored in exactly one template city: the pattern of local programs. Never empty:
   * a template without such rows lends its shared ones.
   */
  localRows: TemplateRow[];
  /** One row per name stored in two or more template cities: the pattern of shared programs. Never empty, likewise. */
  sharedRows: TemplateRow[];
  liveCities: CityRow[];
  liveRowCount: number;
  /** Rows of every city, live or not: the denominator of the change-log rate. */
  allRowCount: number;
  /** Evidence, corrections and quarantine entries of the federal layer, copied unchanged. */
  national: { linkChecks: LinkCheck[]; reviews: SourceReview[]; corrections: Correction[]; quarantine: QuarantineEntry[] };
  changes: ChangeEventRow[];
}

/** Builds the sampling view of `corpus`; throws when it has no live program rows to sample. */
export function readSynthTemplate(corpus: Corpus): SynthTemplate {
  const checksByUrl = groupBy(corpus.linkChecks, (check) => check.url);
  const reviewsByRecord = groupBy(corpus.sourceReviews, (review) => recordKey(review.city, review.programId));
  const quarantineByRecord = groupBy(corpus.quarantine, (entry) => recordKey(entry.city, entry.programId));
  const correctionsByRecord = indexCorrections(corpus.corrections);

  const liveCities = corpus.cities.filter((city) => city.status === 'live');
  const rows: TemplateRow[] = [];
  const citiesByName = new Map<string, Set<string>>();
  let allRowCount = 0;
  for (const city of corpus.cities) {
    const cityRows = readCityPrograms(corpus, city.slug);
    allRowCount += cityRows.length;
    if (city.status !== 'live') continue;
    for (const row of cityRows) {
      const key = recordKey(city.slug, row.id);
      const corrections = correctionsByRecord.get(key) ?? [];
      const effective = applyCorrections(row, corrections).maxAmount;
      rows.push({
        city, row, corrections,
        effectiveAmount: typeof effective === 'number' ? effective : null,
        linkChecks: row.url === null ? [] : (checksByUrl.get(row.url) ?? []),
        reviews: reviewsByRecord.get(key) ?? [],
        quarantine: quarantineByRecord.get(key) ?? [],
      });
      const name = normalizeName(row.name);
      const cities = citiesByName.get(name) ?? new Set<string>();
      cities.add(city.slug);
      citiesByName.set(name, cities);
    }
  }
  if (rows.length === 0) throw new Error(`template corpus ${corpus.root} has no program rows in a live city`);

  const isShared = (entry: TemplateRow) => (citiesByName.get(normalizeName(entry.row.name))?.size ?? 0) > 1;
  const sharedNames = new Set<string>();
  const sharedRows = rows.filter((entry) => {
    const name = normalizeName(entry.row.name);
    if (!isShared(entry) || sharedNames.has(name)) return false;
    sharedNames.add(name);
    return true;
  });
  const localRows = rows.filter((entry) => !isShared(entry));
  const nationalUrls = new Set(corpus.national.map((row) => row.url).filter((url) => url !== null));
  return {
    corpus,
    localRows: localRows.length > 0 ? localRows : sharedRows,
    sharedRows: sharedRows.length > 0 ? sharedRows : localRows,
    liveCities,
    liveRowCount: rows.length,
    allRowCount,
    national: {
      linkChecks: corpus.linkChecks.filter((check) => nationalUrls.has(check.url)),
      reviews: corpus.sourceReviews.filter((review) => review.city === NATIONAL_SLUG),
      corrections: corpus.corrections.filter((correction) => correction.city === NATIONAL_SLUG),
      quarantine: corpus.quarantine.filter((entry) => entry.city === NATIONAL_SLUG),
    },
    changes: corpus.changes,
  };
}
