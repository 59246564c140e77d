const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Blocks the event loop (and an in-process gateway's with it) for `ms`, as a long turn of a loaded gateway
 * does. It sleeps (`Atomics.wait`) rather than spins, so the CPU stays free for the processes the test
 * talks to: a spinning block on a loaded 2-core machine starves redis-server itself, and a reply it then
 * sends late is rightly refused.
 */
export function blockEventLoop(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
