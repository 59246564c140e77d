/** The RSS of a whole process tree (a launcher, the run and the children it forks), read from /proc. */
import { readdirSync, readFileSync } from 'node:fs';
import { residentBytes } from './bench-process.ts';

/** `pid` and every process below it (Linux: /proc/<pid>/task/<tid>/children). */
export function processTree(pid: number): number[] {
  const found = [pid];
  for (let index = 0; index < found.length; index += 1) {
    const parent = found[index]!;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        for (const word of readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8').trim().split(/\s+/)) if (word !== '') found.push(Number(word));
      } catch {
        // The task ended between the listing and the read.
      }
    }
  }
  return found;
}

/** One sample of a tree: each process's RSS (in tree order) and their sum. */
export interface TreeSample {
  each: number[];
  sum: number;
}

/** Samples the tree below `pid` now. */
export function sampleProcessTree(pid: number): TreeSample {
  const each = processTree(pid).map((id) => residentBytes(id) ?? 0);
  return { each, sum: each.reduce((total, bytes) => total + bytes, 0) };
}

/** Samples the tree below `pid` every `everyMs` until stopped; `stop` gives the highest sum seen (0 off Linux). */
export function watchProcessTree(pid: number, everyMs: number): { stop(): TreeSample & { mostProcesses: number } } {
  let peak: TreeSample = { each: [], sum: 0 };
  let mostProcesses = 0;
  const take = () => {
    const sample = sampleProcessTree(pid);
    if (sample.sum > peak.sum) peak = sample;
    mostProcesses = Math.max(mostProcesses, sample.each.length);
  };
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { ...peak, mostProcesses };
    },
  };
}
