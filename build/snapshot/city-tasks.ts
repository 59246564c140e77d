/**
 * The per-city work of a build that needs no database: a city's revision digest and its serialized share
 * of the snapshot. One handler, run on the writing thread or on worker threads (city-worker.ts), so both
 * give the same answers.
 */
import type { Corpus } from '../corpus/corpus-types.ts';
import { readCityPrograms, readProgramFile } from '../corpus/read-city-programs.ts';
import { createRecordDeriver, type RecordDeriver } from '../derive/derive-record.ts';
import { cityProgramsDigest } from '../revision/compute-revision.ts';
import { rowUrls, type CityEvidence } from './city-evidence.ts';
import { serializeCity, type CollectionHead, type SerializedCity } from './serialize-city.ts';

/** What every thread holds: where each city's rows are and the corpus-wide policy; evidence comes per batch. */
export type CityTaskInputs = Pick<Corpus, 'manifest' | 'adjacentRules' | 'programFiles'>;

/** One unit of work. */
export type CityTask =
  /** `file`: where the rows are, for a digest asked before the thread has its inputs (digestAhead). */
  | { kind: 'digest'; slug: string; file?: string }
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
 * indexes are built once per evidence object, so a batch shares them. Without `inputs` (a worker started
 * before the corpus was loaded) it answers only digest tasks that name their file.
 */
export function createCityTaskHandler(inputs: CityTaskInputs | undefined): (task: CityTask, evidence: CityEvidence) => CityTaskResult {
  let derive: { evidence: CityEvidence; deriver: RecordDeriver } | undefined;
  return (task, evidence) => {
    if (task.kind === 'digest') {
      if (task.file === undefined && inputs === undefined) throw new Error(`digest task for ${task.slug} names no file and the thread has no inputs yet`);
      const rows = task.file === undefined ? readCityPrograms(inputs!, task.slug) : readProgramFile(task.file);
      return { kind: 'digest', slug: task.slug, digest: cityProgramsDigest(rows), urls: rowUrls(rows) };
    }
    if (inputs === undefined) throw new Error(`serialize task for ${task.slug} before the thread had its inputs`);
    const rows = readCityPrograms(inputs, task.slug);
    if (derive?.evidence !== evidence) derive = { evidence, deriver: createRecordDeriver({ ...inputs, ...evidence }) };
    return { kind: 'serialize', city: serializeCity(task.slug, rows, derive.deriver, task.head) };
  };
}
