/**
 * A command ends with the process that started it. The command's side of scripts/hra-bin.js: when the launcher runs the work in this child process, the child
 * ends when the launcher does, however the launcher ended. The launcher holds an IPC channel to it, which the
 * kernel closes when the launcher dies (even by SIGKILL, which it cannot pass on); the disconnect is taken as
 * SIGTERM, so the command stops as it does on that signal (temporary files removed, a gateway drained).
 * PR_SET_PDEATHSIG would do the same without a channel, but node cannot reach it without a native addon.
 * `npm start` has no launcher: there the parent is npm, which does not pass SIGTERM on (endWithNpm).
 */

/** Set by the launcher in the child's environment: the IPC channel is the launcher's. */
export const LAUNCHER_CHANNEL_ENV = 'HRA_LAUNCHER_CHANNEL';

// A command that does not end on SIGTERM within this time after its launcher died is killed.
const GRACE_MS = 10_000;

/** Ends this process when the launcher that started it goes away; does nothing when no launcher did. */
export function endWithLauncher(): void {
  if (process.env[LAUNCHER_CHANNEL_ENV] !== '1' || process.channel === undefined) return;
  // Not inherited: a process this command starts with its own channel has its own rules.
  delete process.env[LAUNCHER_CHANNEL_ENV];
  // The channel must not keep the command alive once its work is done.
  process.channel.unref();
  process.once('disconnect', () => {
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), GRACE_MS).unref();
    process.kill(process.pid, 'SIGTERM');
  });
}

/**
 * Ends this process, as on SIGTERM, when npm, which ran it as a script, has gone: npm does not pass a SIGTERM it
 * receives on to the script, it exits and the script is reparented. Only under npm (`npm_lifecycle_event`).
 */
export function endWithNpm(): void {
  if (process.env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 200);
  watch.unref();
}
