/**
 * Measures how long this process's event loop goes without a turn: a timer that should fire every
 * `everyMs` notes each late firing, both as wall-clock delay and as the CPU time the main thread spent in
 * between. On a loaded machine the wall clock also counts time the scheduler gave to other processes; the
 * main thread's CPU time counts only work it did, which is what a synchronous step on the loop shows as.
 * Linux reports it per thread (/proc/self/task/<pid>/stat, in 10 ms ticks); elsewhere the process's CPU
 * time, all threads together, stands in as an upper bound.
 */
import { readFileSync } from 'node:fs';

/** The longest gaps seen since the watch began. */
export interface EventLoopBlocks {
  /** The longest wall-clock delay of a turn beyond the timer's period, in ms. */
  maxDelayMs: number;
  /** The most CPU time the main thread spent between two turns of the timer, in ms (10 ms resolution on Linux). */
  maxBusyMs: number;
}

/** A running watch. */
export interface EventLoopWatch {
  /** Stops the timer and returns what it saw. */
  stop(): EventLoopBlocks;
}

/** Starts watching; the timer is unref'd, so it never keeps the process alive. */
export function watchEventLoop(everyMs = 10): EventLoopWatch {
  const seen: EventLoopBlocks = { maxDelayMs: 0, maxBusyMs: 0 };
  let lastAt = performance.now();
  let lastCpu = mainThreadCpuMs();
  const sample = () => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    seen.maxDelayMs = Math.max(seen.maxDelayMs, now - lastAt - everyMs);
    seen.maxBusyMs = Math.max(seen.maxBusyMs, cpu - lastCpu);
    lastAt = now;
    lastCpu = cpu;
  };
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      // The block may end in the same turn as the watched work, before the timer could fire again.
      sample();
      return { maxDelayMs: Math.round(seen.maxDelayMs), maxBusyMs: Math.round(seen.maxBusyMs) };
    },
  };
}

const STAT = `/proc/self/task/${process.pid}/stat`;
/** USER_HZ: 100 on every Linux architecture Node supports. */
const MS_PER_TICK = 10;

/** CPU time of the main thread so far (Linux), else of the whole process, in ms. */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(STAT, 'latin1');
    // utime and stime, the 14th and 15th fields, counted after the parenthesized command name.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
}
