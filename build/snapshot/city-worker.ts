/**
 * Entry point of a build worker thread (city-worker-pool.ts): answers batches of city tasks in the order
 * they arrive, on the port it was given, and bumps a shared counter after each answer so the writing thread can wait
 * for it synchronously (the build's steps are a synchronous generator).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { createProgramFileCheck, type ProgramFileCheck, type ProgramFileRules } from '../corpus/check-program-file.ts';
import type { CityEvidence } from './city-evidence.ts';
import { createCityTaskHandler, type CheckTask, type CityTask, type CityTaskInputs } from './city-tasks.ts';

const { port, answered } = workerData as { port: MessagePort; answered: Int32Array };
// The loader's rules and the inputs come in messages, not with the thread: a worker can start before the
// corpus is loaded, and check and digest its program files while the rest of it loads.
let inputs: CityTaskInputs | undefined;
let check: ProgramFileCheck | undefined;
let handle = createCityTaskHandler(undefined);

type Message = { rules: ProgramFileRules } | { inputs: CityTaskInputs } | { tasks: Array<CityTask | CheckTask>; evidence: CityEvidence };

parentPort?.on('message', (message: Message) => {
  if ('rules' in message || 'inputs' in message) {
    if ('rules' in message) check = createProgramFileCheck(message.rules);
    else inputs = message.inputs;
    handle = createCityTaskHandler(inputs, check);
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
