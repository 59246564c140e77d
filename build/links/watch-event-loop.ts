/**
 * Measures how long this process's event loop goes without a turn: a timer that should fire every
 * `everyMs` notes each late firing, both as wall-clock delay and as the CPU time the process spent in
 * between. On a loaded machine the wall clock also counts time the scheduler gave to other processes; the
 * CPU time counts only work this process did, which is what a synchronous step on the loop shows as.
 */

/** The longest gaps seen since the watch began. */
export interface EventLoopBlocks {
  /** The longest wall-clock delay of a turn beyond the timer's period, in ms. */
  maxDelayMs: number;
  /** The most CPU time this process spent between two turns of the timer, in ms (all its threads). */
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
  let lastCpu = process.cpuUsage();
  const sample = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    seen.maxDelayMs = Math.max(seen.maxDelayMs, now - lastAt - everyMs);
    seen.maxBusyMs = Math.max(seen.maxBusyMs, (cpu.user + cpu.system) / 1000);
    lastAt = now;
    lastCpu = process.cpuUsage();
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
