/** Lets SIGINT and SIGTERM stop a long command cleanly instead of killing it mid-write. */
import { constants } from 'node:os';
import { CliFailure } from '../cli-failure.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Runs `work` with a signal that SIGINT or SIGTERM aborts, with a CliFailure (`what` interrupted by the
 * signal, exit code 128 + its number) as the reason, so `work` can remove its temporary files and fail
 * on one line. Before and after `work`, the signals' default action (terminate) applies again.
 */
export async function abortOnSignals<T>(what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const handlers = SIGNALS.map((name) => {
    const handler = () => controller.abort(new CliFailure(`${what} interrupted by ${name}; its temporary files were removed`, { exitCode: 128 + constants.signals[name] }));
    process.on(name, handler);
    return { name, handler };
  });
  try {
    return await work(controller.signal);
  } finally {
    for (const { name, handler } of handlers) process.off(name, handler);
  }
}
