/**
 * The one line `hra` prints when it cannot even load a command's modules. Out of descriptors (a low
 * `ulimit -n`), Node's module loader fails with EMFILE, or with a "cannot find package" that only means a
 * lookup could not open a file; either way the open-file limit is named, since that is what to raise.
 * Imports nothing, like everything scripts/hra.ts loads before the command.
 */
/** Below this open-file limit a failure to load modules is put down to it. */
const LOW_DESCRIPTOR_LIMIT = 256;

/** `cannot load hra: <first line of the error>`, with the open-file limit when it is the likely cause. */
export function describeLoadFailure(error: unknown, descriptorLimit: number | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.trim().split(/\r?\n/)[0] ?? 'unknown error';
  const code = (error as { code?: unknown } | null)?.code;
  const outOfDescriptors = code === 'EMFILE' || code === 'ENFILE' || /\b(?:EMFILE|ENFILE)\b/.test(firstLine);
  let hint = '';
  if (descriptorLimit === undefined && outOfDescriptors) hint = ': out of file descriptors; raise the open-file limit (ulimit -n)';
  else if (descriptorLimit !== undefined && (outOfDescriptors || descriptorLimit < LOW_DESCRIPTOR_LIMIT)) {
    hint = `: the open-file limit (ulimit -n) is ${descriptorLimit}, too low to load hra; raise it to ${LOW_DESCRIPTOR_LIMIT} or more`;
  }
  return `cannot load hra: ${firstLine}${hint}`;
}
