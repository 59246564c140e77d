/**
 * Which build worker takes the next batch of city tasks (city-worker-pool.ts). Batches used to go to
 * worker i mod n whatever each had left to do, so under load one worker sat idle while the other still
 * held a queue (BENCHMARKS.md "Build"): a batch now goes to the worker with the fewest batches it has
 * not answered yet, the one about to run dry. The answers still come back in task order, since each
 * worker answers its own batches in the order it was sent them and the writer reads each batch from the
 * worker it went to.
 */

/** Picks a lane (an index into `outstanding`) given each lane's batches sent and not yet answered. */
export type BuildLaneChooser = (outstanding: readonly number[]) => number;

/** The lane with the fewest unanswered batches; the lowest index among equals, so a quiet build stays round-robin-like. */
export function leastBusyLane(outstanding: readonly number[]): number {
  if (outstanding.length === 0) throw new Error('no build worker to choose from');
  let chosen = 0;
  for (let lane = 1; lane < outstanding.length; lane++) if (outstanding[lane]! < outstanding[chosen]!) chosen = lane;
  return chosen;
}
