/**
 * Runs city tasks (city-tasks.ts) on worker threads while the calling thread writes SQLite: a build on
 * every core. Answers come back in task order whatever the number of workers, and the writing thread takes
 * them synchronously (the build's steps are a synchronous generator): each worker answers on its own port
 * and bumps a shared counter the writer waits on with Atomics.wait. With no workers the same handler runs
 * on the calling thread, which is how a single-threaded build is forced (and tested to be the same bytes).
 *
 * The worker file is `city-worker.ts` under tsx (tests, `hra` when dist/js is stale) and `city-worker.js`
 * once compiled (`hra` when dist/js is current): its name is taken from this module's own extension, so
 * the workers run as the main thread does. On Node 20 a worker does not inherit the loader hooks
 * `--import tsx` registered (nor runs the `--import` it inherits in its execArgv), so under tsx the worker
 * registers them itself before loading the file, and a compiled build's workers load no tsx at all.
 * Each worker has its own, smaller heap cap (WORKER_OLD_SPACE_MB) instead of the process's.
 */
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { leastBusyLane, type BuildLaneChooser } from './choose-build-lane.ts';
import { indexEvidence, type CityEvidence, type EvidenceIndex } from './city-evidence.ts';
import type { ProgramFileChecker, ProgramFileFacts } from '../corpus/check-program-file.ts';
import { createCityTaskHandler, type CheckTask, type CityDigest, type CityTask, type CityTaskInputs, type CityTaskResult } from './city-tasks.ts';

/**
 * Tasks go to a worker in batches: a message per city would cost an event-loop turn and a wake-up per
 * city on each side, and left the workers idle for a measurable share of the build (BENCHMARKS.md, issue 15).
 */
const TASKS_PER_BATCH = 16;
/** Batches handed to each worker beyond the one being read: enough to keep it busy, few enough to bound memory. */
const AHEAD_PER_WORKER = 8;
/**
 * Each worker's old-generation cap, well above its live data (the corpus-wide policy, a few batches of
 * cities and their evidence): left to inherit the process's `--max-old-space-size=768`, a worker lets its
 * heap grow towards that before collecting.
 */
const WORKER_OLD_SPACE_MB = 128;
/** A worker that answers nothing for this long is taken for dead (an out-of-memory exit posts nothing). */
const SILENT_WORKER_MS = 120_000;

const WORKER_ENTRY = new URL(`./city-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url).href;

/** tsx's registration API when this module runs as TypeScript, else undefined (compiled: nothing to register). */
function tsxApi(): string | undefined {
  return WORKER_ENTRY.endsWith('.ts') ? import.meta.resolve('tsx/esm/api') : undefined;
}

// Plain CommonJS that loads the worker module: a module that fails to load (or throws outside a task)
// still answers, with its error, so the waiting writer fails instead of waiting.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const fail = (error) => {
  workerData.port.postMessage({ ok: false, fatal: true, message: String((error && error.stack) || error) });
  Atomics.add(workerData.answered, 0, 1);
  Atomics.notify(workerData.answered, 0);
};
process.on('uncaughtException', fail);
(async () => {
  if (workerData.tsxApi !== undefined) (await import(workerData.tsxApi)).register();
  await import(workerData.entry);
})().catch(fail);
`;

/** Runs city tasks in order; close it when done. */
export interface CityTaskRunner {
  /** Worker threads in use; 0 when the tasks run on the calling thread. */
  readonly workers: number;
  /** Yields the answer of each task, in order. */
  run(tasks: readonly CityTask[]): Generator<CityTaskResult, void, void>;
  close(): void;
}

const NO_EVIDENCE: CityEvidence = { linkChecks: [], sourceReviews: [], quoteChecks: [], corrections: [], quarantine: [] };

interface Lane {
  index: number;
  worker: Worker;
  port: MessagePort;
  /** Answers posted by the worker (the counter the writer waits on). */
  answered: Int32Array;
  /** Batches posted to the worker: with `answered`, how many it has yet to answer. */
  posted: number;
}

/** Below this many cities a build runs on one thread: starting workers would cost more than they save. */
export const MIN_CITIES_FOR_WORKERS = 200;

/**
 * At most this many workers: the one writing thread does about a third of a build's work, so more workers
 * than this would wait on it, and each adds its own heap to the build's memory budget.
 */
export const MAX_BUILD_WORKERS = 3;

/**
 * The default number of worker threads for a build of `cities` cities: one per core (the writer shares a
 * core with one of them) up to MAX_BUILD_WORKERS, or none for a small corpus.
 */
export function defaultBuildWorkers(cities: number): number {
  return cities < MIN_CITIES_FOR_WORKERS ? 0 : Math.min(availableParallelism(), MAX_BUILD_WORKERS);
}

/**
 * Starts `workers` worker threads (0: none, the tasks run on this thread). A worker holds only `inputs`;
 * each batch of cities goes with its share of `evidence` (city-evidence.ts), chosen by the URLs a digest
 * task found in the cities' rows: a serialize task for a city not yet digested digests it first.
 */
export function startCityTaskRunner(inputs: CityTaskInputs, evidence: CityEvidence, workers: number, chooseLane: BuildLaneChooser = leastBusyLane): CityTaskRunner {
  if (!Number.isInteger(workers) || workers < 0) throw new Error(`build workers must be a whole number, got ${workers}`);
  if (workers === 0) {
    const handle = createCityTaskHandler(inputs);
    return {
      workers: 0,
      *run(tasks) {
        for (const task of tasks) yield handle(task, evidence);
      },
      close() {},
    };
  }
  return startCityWorkers(workers, chooseLane).runner(inputs, evidence);
}

/**
 * Worker threads started before the corpus is loaded (their inputs come later), which meanwhile check the
 * corpus's program files for the loader and digest them in the same read (ProgramFileChecker).
 */
export interface CityWorkers extends ProgramFileChecker {
  readonly workers: number;
  /**
   * The runner over these threads, once the corpus is loaded: sends them `inputs`, takes any checks not
   * yet taken, and keeps the digests of the checked files the corpus reads from the same path. A city
   * digested otherwise (a file with problems, none checked) is digested again by the runner, so a real
   * failure is reported by the task that needs it.
   */
  runner(inputs: CityTaskInputs, evidence: CityEvidence): CityTaskRunner;
  close(): void;
}

/**
 * Starts `workers` (at least 1) worker threads that have no inputs yet (see CityWorkers). `chooseLane`
 * picks the worker of each batch of city tasks (choose-build-lane.ts); the program-file checks, all posted
 * at once before any is answered, go round-robin.
 */
export function startCityWorkers(workers: number, chooseLane: BuildLaneChooser = leastBusyLane): CityWorkers {
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`build workers must be a whole number above 0, got ${workers}`);
  const registerTsx = tsxApi();
  const lanes: Lane[] = [];
  for (let index = 0; index < workers; index++) {
    const { port1, port2 } = new MessageChannel();
    const answered = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { entry: WORKER_ENTRY, tsxApi: registerTsx, port: port2, answered },
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_OLD_SPACE_MB },
    });
    // The writer waits on the counter, not on events: a worker must not keep the process alive by itself.
    worker.unref();
    lanes.push({ index, worker, port: port1, answered, posted: 0 });
  }
  const close = () => {
    for (const lane of lanes) {
      lane.port.close();
      void lane.worker.terminate();
    }
  };
  // Check batches posted, in order (batch i went to lane i mod n, which answers in the order posted), and
  // how many of their answers were taken; the digests of the files checked without a problem, by city.
  let posted = 0;
  let taken = 0;
  let checking = false;
  const digested = new Map<string, { path: string; digest: CityDigest }>();
  const takeChecks = (): ProgramFileFacts[] => {
    const lane = lanes[taken % lanes.length]!;
    taken += 1;
    const facts: ProgramFileFacts[] = [];
    for (const result of receive(lane)) {
      if (result.kind !== 'check') throw new Error(`build worker answered a ${result.kind} task to a check task`);
      if (result.digested !== undefined) digested.set(result.slug, { path: result.path, digest: result.digested });
      facts.push(result.facts);
    }
    return facts;
  };
  return {
    workers,
    checkFiles(files, rules) {
      if (checking) throw new Error('build workers: program files can be checked once');
      checking = true;
      for (const lane of lanes) lane.worker.postMessage({ rules });
      for (let start = 0; start < files.length; start += TASKS_PER_BATCH) {
        const tasks: CheckTask[] = files.slice(start, start + TASKS_PER_BATCH).map((file) => ({ kind: 'check', file }));
        post(lanes[posted % lanes.length]!, { tasks, evidence: NO_EVIDENCE });
        posted += 1;
      }
      return (function* () {
        while (taken < posted) yield* takeChecks();
      })();
    },
    runner(inputs, evidence) {
      for (const lane of lanes) lane.worker.postMessage({ inputs });
      // Checks the loader left untaken (it stopped early) would be read as the runner's answers.
      while (taken < posted) takeChecks();
      const evidenceIndex = indexEvidence(evidence);
      const ahead = new Map<string, CityTaskResult>();
      for (const [slug, { path, digest }] of digested) {
        if (inputs.programFiles.get(slug) !== path) continue;
        ahead.set(slug, { kind: 'digest', slug, ...digest });
        evidenceIndex.noteUrls(slug, digest.urls);
      }
      digested.clear();
      return createRunner(lanes, evidenceIndex, ahead, chooseLane, close);
    },
    close,
  };
}

/** Posts a batch to `lane`'s worker, counting it as unanswered until the worker bumps its counter. */
function post(lane: Lane, message: { tasks: Array<CityTask | CheckTask>; evidence: CityEvidence }): void {
  lane.worker.postMessage(message);
  lane.posted += 1;
}

/** Each lane's batches posted and not yet answered (a failed thread's extra answer reads as none left). */
function outstandingOf(lanes: readonly Lane[]): number[] {
  return lanes.map((lane) => Math.max(0, lane.posted - Atomics.load(lane.answered, 0)));
}

function createRunner(lanes: readonly Lane[], evidenceIndex: EvidenceIndex, ahead: ReadonlyMap<string, CityTaskResult>, chooseLane: BuildLaneChooser, close: () => void): CityTaskRunner {
  // A run left before its end leaves answers in the ports that a later run would take for its own.
  let abandoned = false;
  const runner: CityTaskRunner = {
    workers: lanes.length,
    *run(tasks) {
      const isAhead = (task: CityTask) => task.kind === 'digest' && ahead.has(task.slug);
      if (tasks.some(isAhead)) {
        // Answered ahead: yield those, the rest from the workers, in task order.
        const rest = runner.run(tasks.filter((task) => !isAhead(task)));
        let completed = false;
        try {
          for (const task of tasks) {
            if (isAhead(task)) yield ahead.get(task.slug)!;
            else {
              const next = rest.next();
              if (next.done) throw new Error('build workers answered fewer tasks than they were sent');
              yield next.value;
            }
          }
          // Run to its end, so it counts as finished.
          if (!rest.next().done) throw new Error('build workers answered more tasks than they were sent');
          completed = true;
        } finally {
          // Left early, the inner run is left too, and marks the workers' answers out of step.
          if (!completed) rest.return();
        }
        return;
      }
      if (abandoned) throw new Error('build workers: a run was left unfinished, so their answers are out of step');
      const unsurveyed = tasks.filter((task) => task.kind === 'serialize' && !evidenceIndex.hasUrls(task.slug));
      if (unsurveyed.length > 0) {
        // Their digests are not wanted, only the URLs the digest tasks report (noted as they come back).
        for (const result of runner.run(unsurveyed.map((task) => ({ kind: 'digest', slug: task.slug })))) void result;
      }
      const batches: CityTask[][] = [];
      for (let start = 0; start < tasks.length; start += TASKS_PER_BATCH) batches.push(tasks.slice(start, start + TASKS_PER_BATCH));
      // Batch i goes to the worker chooseLane names when it is sent, which answers its batches in the order
      // sent: reading batch i from that worker keeps task order.
      const laneOfBatch: Lane[] = [];
      let sent = 0;
      let finished = false;
      try {
        for (let next = 0; next < batches.length; next++) {
          for (; sent < batches.length && sent <= next + lanes.length * AHEAD_PER_WORKER; sent++) {
            const batch = batches[sent]!;
            const serialize = batch.some((task) => task.kind === 'serialize');
            const chosen = chooseLane(outstandingOf(lanes));
            const lane = lanes[chosen];
            if (lane === undefined) throw new Error(`build workers: no worker ${chosen} of ${lanes.length}`);
            laneOfBatch[sent] = lane;
            post(lane, { tasks: batch, evidence: serialize ? evidenceIndex.forCities(batch.map((task) => task.slug)) : NO_EVIDENCE });
          }
          for (const result of receive(laneOfBatch[next]!)) {
            if (result.kind === 'digest') evidenceIndex.noteUrls(result.slug, result.urls);
            yield result;
          }
        }
        finished = true;
      } finally {
        if (!finished) abandoned = true;
      }
    },
    close,
  };
  return runner;
}

/** A batch's answer; `fatal` when the thread itself failed (its module did not load, or it threw outside a task). */
type Answer = { ok: true; results: CityTaskResult[] } | { ok: false; fatal?: true; message: string };

function receive(lane: Lane): CityTaskResult[] {
  const answer = receiveAnswer(lane);
  if (!answer.ok) throw new Error(`build worker ${lane.index} failed: ${answer.message}`);
  return answer.results;
}

/** The next answer of `lane`, waiting for it. */
function receiveAnswer(lane: Lane): Answer {
  let waited = 0;
  for (;;) {
    const seen = Atomics.load(lane.answered, 0);
    const message = receiveMessageOnPort(lane.port);
    if (message !== undefined) {
      return message.message as Answer;
    }
    if (Atomics.wait(lane.answered, 0, seen, 1000) === 'timed-out') {
      waited += 1000;
      if (waited >= SILENT_WORKER_MS) throw new Error(`build worker ${lane.index} answered nothing for ${SILENT_WORKER_MS / 1000} s`);
    }
  }
}
