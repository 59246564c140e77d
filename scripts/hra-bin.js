#!/usr/bin/env node
/**
 * The `hra` command on PATH (package.json `bin`; `npm run hra` runs it too): `npx hra` in a clone after
 * `npm ci`, or `hra` after a global install. Plain JavaScript, because nothing may be compiled or loaded
 * before it runs.
 *
 * Every command runs the compiled CLI (dist/js, from `npm run compile`, which `npm pack` runs too) when
 * dist/js is current: its compile manifest names exactly the bytes of the TypeScript sources on disk
 * (build/revision/compiled-sources.ts). It starts faster and holds less memory than the TypeScript loader,
 * in the build's workers too. Otherwise (no dist/js, or a source edited, added or removed since) the
 * command runs from the sources through tsx, so an edit takes effect without a compile; the revision is
 * the same either way, since it digests the sources themselves.
 *
 * Build-side commands run with a V8 heap cap (docs/maintainers.md "hra build"), which must be set when V8
 * starts: with the one this process was started with (`npm run hra` starts it with 768 MB), else in a
 * child started with 768 MB, which this process passes its signals (SIGINT, SIGTERM, SIGHUP) to and ends as;
 * the child ends when this process does, even by SIGKILL. `serve`, `keys` and
 * `links` run without one (the production command sets its own flags).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const UNCAPPED_COMMANDS = new Set(['serve', 'keys', 'links', undefined]);
const DEFAULT_HEAP_CAP = '--max-old-space-size=768';
const compiledCli = new URL('dist/js/scripts/hra.js', root);
const sourceCli = new URL('scripts/hra.ts', root);

// npm (npm run hra, npx hra) does not pass a SIGTERM it receives on to the command it runs: it exits, and
// this process is reparented. Taken as that SIGTERM, once; only under npm, so `hra serve &` from a shell
// script that then exits keeps serving.
if (process.env.npm_lifecycle_event !== undefined) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 200);
  watch.unref();
}

/** The subcommand named by the arguments: the first word that is not an option. */
const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
const heapCap = process.execArgv.find((arg) => /^--max-old-space-size=/.test(arg));
// A compiled tree without its sources (copied alone) can only run compiled; its build-side commands refuse.
const compiled = existsSync(fileURLToPath(sourceCli)) ? await compiledIsCurrent() : existsSync(fileURLToPath(compiledCli));

if (compiled && (heapCap !== undefined || UNCAPPED_COMMANDS.has(command))) {
  await import(compiledCli.href);
} else {
  const entry = compiled ? [fileURLToPath(compiledCli)] : ['--import', import.meta.resolve('tsx'), fileURLToPath(sourceCli)];
  // The IPC channel is how the child notices this process has gone, even by SIGKILL (scripts/end-with-parent.ts).
  const child = spawn(process.execPath, [heapCap ?? DEFAULT_HEAP_CAP, ...entry, ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, HRA_LAUNCHER_CHANNEL: '1' },
  });
  // Ctrl-C reaches the child from the terminal as well; a second SIGINT is harmless (abort-on-signals.ts).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.once('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}

/**
 * Whether dist/js was compiled from exactly the sources on disk, asked of dist/js's own compiled check: a
 * check compiled from other sources than these finds its own source changed, and a dist/js older than the
 * compile manifest has no check at all.
 */
async function compiledIsCurrent() {
  let check;
  try {
    check = await import(new URL('dist/js/build/revision/compiled-sources.js', root).href);
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND') return false;
    throw error;
  }
  return check.compiledTreeState(fileURLToPath(root)).current;
}
