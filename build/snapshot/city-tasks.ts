/**
 * The per-city work of a build that needs no database: a city's revision digest and its serialized share
 * of the snapshot. One handler, run on the writing thread or on worker threads (city-worker.ts), so both
 * give the same answers.
 */
import type { Corpus } from '../corpus/corpus-types.ts';
import { readCityPrograms } from '../corpus/load-corpus.ts';
import { createRecordDeriver, type RecordDeriver } from '../derive/derive-record.ts';
import { cityProgramsDigest } from '../revision/compute-revision.ts';
import { rowUrls, type CityEvidence } from './city-evidence.ts';
import { serializeCity, type CollectionHead, type SerializedCity } from './serialize-city.ts';

/** What every thread holds: where each city's rows are and the corpus-wide policy; evidence comes per batch. */
export type CityTaskInputs = Pick<Corpus, 'manifest' | 'adjacentRules' | 'programFiles'>;

/** One unit of work. */
export type CityTask =
  | { kind: 'digest'; slug: string }
  | { kind: 'serialize'; slug: string; head: CollectionHead };

/** Its answer; a digest also names the URLs of the city's rows, which choose the evidence sent with it later. */
export type CityTaskResult =
  | { kind: 'digest'; slug: string; digest: string; urls: string[] }
  | { kind: 'serialize'; city: SerializedCity };

/** The parts of `corpus` every thread holds. */
export function cityTaskInputs(corpus: Corpus): CityTaskInputs {
  const { manifest, adjacentRules, programFiles } = corpus;
  return { manifest, adjacentRules, programFiles };
}

/**
 * Creates the handler of one thread. `evidence` is what applies to the task's city (or more); derivation's
 * indexes are built once per evidence object, so a batch shares them.
 */
export function createCityTaskHandler(inputs: CityTaskInputs): (task: CityTask, evidence: CityEvidence) => CityTaskResult {
  let derive: { evidence: CityEvidence; deriver: RecordDeriver } | undefined;
  return (task, evidence) => {
    const rows = readCityPrograms(inputs, task.slug);
    if (task.kind === 'digest') return { kind: 'digest', slug: task.slug, digest: cityProgramsDigest(rows), urls: rowUrls(rows) };
    if (derive?.evidence !== evidence) derive = { evidence, deriver: createRecordDeriver({ ...inputs, ...evidence }) };
    return { kind: 'serialize', city: serializeCity(task.slug, rows, derive.deriver, task.head) };
  };
}
