/**
 * The per-city work of a build that needs no database: a program file's checks and revision digest in one
 * read, a city's revision digest, and its serialized share of the snapshot. One handler, run on the writing
 * thread or on worker threads (city-worker.ts), so both give the same answers.
 */
import type { ProgramFileCheck, ProgramFileFacts, ProgramFileToCheck } from '../corpus/check-program-file.ts';
import type { Corpus } from '../corpus/corpus-types.ts';
import { readCityPrograms } from '../corpus/read-city-programs.ts';
import { createRecordDeriver, type RecordDeriver } from '../derive/derive-record.ts';
import { cityProgramsDigest } from '../revision/compute-revision.ts';
import { rowUrls, type CityEvidence } from './city-evidence.ts';
import { serializeCity, type CollectionHead, type SerializedCity } from './serialize-city.ts';

/** What every thread holds: where each city's rows are and the corpus-wide policy; evidence comes per batch. */
export type CityTaskInputs = Pick<Corpus, 'manifest' | 'adjacentRules' | 'programFiles'>;

/** One unit of work of a runner (city-worker-pool.ts). */
export type CityTask =
  | { kind: 'digest'; slug: string }
  | { kind: 'serialize'; slug: string; head: CollectionHead };

/** A program file's checks for the loader, sent to a worker before it has its inputs (CityWorkers.checkFiles). */
export interface CheckTask {
  kind: 'check';
  file: ProgramFileToCheck;
}

/** A city's revision digest, and the URLs of its rows, which choose the evidence sent with it later. */
export interface CityDigest {
  digest: string;
  urls: string[];
}

/**
 * Its answer. A check also digests the rows it parsed, when the file has no problem (a file with one fails
 * the load, so its digest would never be used).
 */
export type CityTaskResult =
  | { kind: 'check'; slug: string; path: string; facts: ProgramFileFacts; digested?: CityDigest }
  | ({ kind: 'digest'; slug: string } & CityDigest)
  | { kind: 'serialize'; city: SerializedCity };

/** The parts of `corpus` every thread holds. */
export function cityTaskInputs(corpus: Corpus): CityTaskInputs {
  const { manifest, adjacentRules, programFiles } = corpus;
  return { manifest, adjacentRules, programFiles };
}

/**
 * Creates the handler of one thread. `evidence` is what applies to the task's city (or more); derivation's
 * indexes are built once per evidence object, so a batch shares them. Without `inputs` (a worker started
 * before the corpus was loaded) it answers only check tasks, and those only given `check` (the loader's
 * rules arrived).
 */
export function createCityTaskHandler(inputs: CityTaskInputs | undefined, check?: ProgramFileCheck): (task: CityTask | CheckTask, evidence: CityEvidence) => CityTaskResult {
  let derive: { evidence: CityEvidence; deriver: RecordDeriver } | undefined;
  return (task, evidence) => {
    if (task.kind === 'check') {
      if (check === undefined) throw new Error(`check task for ${task.file.file} before the thread had the loader's rules`);
      const { ids, problems, rows } = check(task.file);
      const digested = problems.length === 0 ? { digest: cityProgramsDigest(rows), urls: rowUrls(rows) } : undefined;
      return { kind: 'check', slug: task.file.slug, path: task.file.path, facts: { ids, problems }, ...(digested === undefined ? {} : { digested }) };
    }
    if (task.kind === 'digest') {
      if (inputs === undefined) throw new Error(`digest task for ${task.slug} before the thread had its inputs`);
      const rows = readCityPrograms(inputs, task.slug);
      return { kind: 'digest', slug: task.slug, digest: cityProgramsDigest(rows), urls: rowUrls(rows) };
    }
    if (inputs === undefined) throw new Error(`serialize task for ${task.slug} before the thread had its inputs`);
    const rows = readCityPrograms(inputs, task.slug);
    if (derive?.evidence !== evidence) derive = { evidence, deriver: createRecordDeriver({ ...inputs, ...evidence }) };
    return { kind: 'serialize', city: serializeCity(task.slug, rows, derive.deriver, task.head) };
  };
}
