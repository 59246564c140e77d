/**
 * A command loads its action's modules when it runs (so `hra --version` loads only commander). Node's
 * loader can give up on one of them, most often out of descriptors under a low `ulimit -n`, with EMFILE or a
 * "cannot find package" that only means a lookup could not open a file: that is hra failing to load, not
 * the command failing, and runCli reports it on hra's own load-failure line. Imports nothing.
 */

/** A command's modules did not load; `cause` is the loader's error. */
export class ModuleLoadFailure extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'ModuleLoadFailure';
  }
}

/** Runs `load` (the action's `import()`s) and marks its failure as a ModuleLoadFailure; whatever the modules then do is the command's own. */
export function loadModules<T>(load: () => Promise<T>): Promise<T> {
  return load().catch((error: unknown) => {
    throw new ModuleLoadFailure(error);
  });
}
