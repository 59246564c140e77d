/**
 * The per-city work of a build that needs no database: a city's revision digest and its serialized share
 * of the snapshot. One handler, run on the writing thread or on worker threads (city-worker.ts), so both
 * give the same answers.
 */
import type { Corpus } from '../corpus/corpus-types.ts';
import { readCityPrograms } from '../corpus/load-corpus.ts';
import { NATIONAL_SLUG } from '../contract/national-slug.ts';
import { createRecordDeriver, type DerivationInputs, type RecordDeriver } from '../derive/derive-record.ts';
import { cityProgramsDigest } from '../revision/compute-revision.ts';
import { serializeCity, type CollectionHead, type SerializedCity } from './serialize-city.ts';

/** What a worker is sent once: derivation's inputs and where each city's rows are. */
export type CityTaskInputs = DerivationInputs & Pick<Corpus, 'programFiles' | 'national'>;

/** One unit of work. */
export type CityTask =
  | { kind: 'digest'; slug: string }
  | { kind: 'serialize'; slug: string; head: CollectionHead };

/** Its answer. */
export type CityTaskResult =
  | { kind: 'digest'; slug: string; digest: string }
  | { kind: 'serialize'; city: SerializedCity };

/** The parts of `corpus` the tasks read, and nothing else (a worker is sent a copy). */
export function cityTaskInputs(corpus: Corpus): CityTaskInputs {
  const { manifest, linkChecks, sourceReviews, corrections, adjacentRules, quarantine, programFiles, national } = corpus;
  return { manifest, linkChecks, sourceReviews, corrections, adjacentRules, quarantine, programFiles, national };
}

/** Creates the handler of one thread; derivation's indexes are built on first use. */
export function createCityTaskHandler(inputs: CityTaskInputs): (task: CityTask) => CityTaskResult {
  let derive: RecordDeriver | undefined;
  const rowsOf = (slug: string) => (slug === NATIONAL_SLUG ? inputs.national : readCityPrograms(inputs, slug));
  return (task) => {
    if (task.kind === 'digest') return { kind: 'digest', slug: task.slug, digest: cityProgramsDigest(readCityPrograms(inputs, task.slug)) };
    derive ??= createRecordDeriver(inputs);
    return { kind: 'serialize', city: serializeCity(task.slug, rowsOf(task.slug), derive, task.head) };
  };
}
