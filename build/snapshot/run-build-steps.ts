/**
 * Drives a build written as a generator that yields between units of work (a city, a file). Run to the end
 * synchronously it is an ordinary function; run asynchronously it lets the event loop turn between steps,
 * so a signal handler can abort it, and its `finally` blocks (which remove temporary files) run on abort.
 */

/** A build that yields between steps and returns its result. */
export type BuildSteps<T> = Generator<void, T, void>;

/** Runs every step at once, without yielding to the event loop. */
export function runBuildSteps<T>(steps: BuildSteps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How often the asynchronous driver lets the event loop turn: often enough that Ctrl-C feels immediate. */
const YIELD_EVERY_MS = 25;

/**
 * Runs the steps, letting the event loop turn every few milliseconds; when `signal` is aborted, ends the
 * generator at its current step (running its `finally` blocks) and throws `signal.reason`.
 */
export async function runBuildStepsAsync<T>(steps: BuildSteps<T>, signal: AbortSignal): Promise<T> {
  let turned = performance.now();
  for (;;) {
    if (signal.aborted) {
      steps.return(undefined as T);
      throw signal.reason;
    }
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - turned >= YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      turned = performance.now();
    }
  }
}
