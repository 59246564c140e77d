#!/usr/bin/env node
/**
 * The `hra` command on PATH (package.json `bin`): `npx hra` in a clone after `npm ci`, or `hra` after a
 * global install. Plain JavaScript, because nothing may be compiled or loaded before it runs.
 *
 * `serve`, `keys` and `links` run the compiled CLI (dist/js, from `npm run compile`, which `npm pack` runs
 * too) when it is at least as new as every source file: it starts faster and holds less memory than the
 * TypeScript loader. Everything else, and those three when dist/js is missing or older than a source,
 * runs from the TypeScript sources through tsx: a revision digests the sources of its derivation rules, so
 * `build`, `digest`, `verify` and `changes` refuse to run compiled (README "Running in production").
 * The sources run in a child with the 768 MB heap cap of `npm run hra` (README "Maintainer workflow"), which
 * must be set when V8 starts; this process passes on the signals it receives and ends as the child ended.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const COMPILED_COMMANDS = new Set(['serve', 'keys', 'links']);
const compiled = new URL('dist/js/scripts/hra.js', root);

/** The subcommand named by the arguments: the first word that is not an option. */
const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));

if (command !== undefined && COMPILED_COMMANDS.has(command) && compiledIsCurrent()) {
  await import(compiled.href);
} else {
  const args = ['--max-old-space-size=768', '--import', import.meta.resolve('tsx'), fileURLToPath(new URL('scripts/hra.ts', root)), ...process.argv.slice(2)];
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  // Ctrl-C reaches the child from the terminal as well; a second SIGINT is harmless (abort-on-signals.ts).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.once('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}

/** Whether dist/js exists and no TypeScript source is newer than it (a stale build must not serve edited code). */
function compiledIsCurrent() {
  const built = statSync(compiled, { throwIfNoEntry: false });
  if (built === undefined) return false;
  for (const folder of ['build', 'gateway', 'scripts']) {
    const entries = readdirSync(fileURLToPath(new URL(folder, root)), { withFileTypes: true, recursive: true });
    for (const entry of entries) {
      if (entry.isFile() && entry.name.endsWith('.ts') && statSync(`${entry.parentPath}/${entry.name}`).mtimeMs > built.mtimeMs) return false;
    }
  }
  return true;
}
