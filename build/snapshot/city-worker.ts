/**
 * Entry point of a build worker thread (city-worker-pool.ts): answers batches of city tasks in the order
 * they arrive, on the port it was given, and bumps a shared counter after each answer so the writing thread can wait
 * for it synchronously (the build's steps are a synchronous generator).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { CityEvidence } from './city-evidence.ts';
import { createCityTaskHandler, type CityTask, type CityTaskInputs } from './city-tasks.ts';

const { port, answered } = workerData as { port: MessagePort; answered: Int32Array };
// The inputs come in a message, not with the thread: a worker can start, and digest, before the corpus is loaded.
let handle = createCityTaskHandler(undefined);

parentPort?.on('message', (message: { inputs: CityTaskInputs } | { tasks: CityTask[]; evidence: CityEvidence }) => {
  if ('inputs' in message) {
    handle = createCityTaskHandler(message.inputs);
    return;
  }
  const { tasks, evidence } = message;
  let answer: unknown;
  try {
    answer = { ok: true, results: tasks.map((task) => handle(task, evidence)) };
  } catch (error) {
    answer = { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(answer);
  Atomics.add(answered, 0, 1);
  Atomics.notify(answered, 0);
});
