/**
 * What dist/js was compiled from. `npm run compile` (scripts/compile.ts) writes dist/js/compile-manifest.json:
 * the SHA-256 of every TypeScript source of the CLI, and the enrichment digest of those sources. The
 * compiled tree may stand for the sources only while the sources on disk are exactly those bytes: an edit
 * after compiling, a source added or removed, makes it stale whatever the files' modification times say.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run compile` writes the JavaScript, relative to the package root. */
export const COMPILED_DIR = 'dist/js';

/** The manifest's path relative to the package root. */
export const COMPILE_MANIFEST = `${COMPILED_DIR}/compile-manifest.json`;

/** Folders whose `.ts` files the CLI is compiled from (tsconfig `include`, less the tests, which are not packed). */
export const COMPILED_SOURCE_FOLDERS = ['build', 'gateway', 'scripts'] as const;

/** Whether this module, and so the CLI that loaded it, runs as the compiled JavaScript rather than the TypeScript source. */
export const RUNNING_COMPILED = import.meta.url.endsWith('.js');

/** The package root: two folders above build/revision, and the compiled tree's own depth more when compiled. */
export const PACKAGE_ROOT = fileURLToPath(new URL(`../../${RUNNING_COMPILED ? COMPILED_DIR.split('/').map(() => '../').join('') : ''}`, import.meta.url));

/** The manifest's content. */
export interface CompileManifest {
  /** `<folder>/<path>.ts` (forward slashes) to the SHA-256 hex of the file's bytes, for every source compiled. */
  readonly sources: Readonly<Record<string, string>>;
  /** The enrichment digest of those sources (enrichment-digest.ts), which a compiled revision must carry. */
  readonly enrichment: string;
}

/** Whether dist/js stands for the sources on disk, and if not, why (a sentence naming a file). */
export type CompiledTreeState = { readonly current: true; readonly manifest: CompileManifest } | { readonly current: false; readonly reason: string };

/** Thrown when compiled code would run against other sources than it was compiled from: an expected refusal, not a bug. */
export class StaleCompileError extends Error {
  override readonly name = 'StaleCompileError';
}

/** The SHA-256 of every `.ts` source under COMPILED_SOURCE_FOLDERS of `root`, keyed by path in code-point order. */
export function hashCompiledSources(root: string = PACKAGE_ROOT): Record<string, string> {
  const paths: string[] = [];
  for (const folder of COMPILED_SOURCE_FOLDERS) {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true, recursive: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts')) paths.push(relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
    }
  }
  const sources: Record<string, string> = {};
  for (const path of paths.sort()) sources[path] = createHash('sha256').update(readFileSync(join(root, path))).digest('hex');
  return sources;
}

/** The manifest of the compiled tree under `root`, or undefined when `npm run compile` did not write one (or is under way). */
export function readCompileManifest(root: string = PACKAGE_ROOT): CompileManifest | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, COMPILE_MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const value = JSON.parse(text) as Partial<CompileManifest>;
  if (typeof value.enrichment !== 'string' || typeof value.sources !== 'object' || value.sources === null) throw new Error(`${join(root, COMPILE_MANIFEST)}: not a compile manifest`);
  return value as CompileManifest;
}

/** Compares the sources under `root` with the manifest of its compiled tree. */
export function compiledTreeState(root: string = PACKAGE_ROOT): CompiledTreeState {
  let manifest: CompileManifest | undefined;
  try {
    manifest = readCompileManifest(root);
  } catch (error) {
    // A damaged manifest vouches for nothing: the sources are what to run.
    return { current: false, reason: `${COMPILE_MANIFEST} is unreadable (${(error as Error).message.split('\n')[0]})` };
  }
  if (manifest === undefined) return { current: false, reason: `${COMPILE_MANIFEST} is missing: ${COMPILED_DIR} was not compiled by npm run compile` };
  let onDisk: Record<string, string>;
  try {
    onDisk = hashCompiledSources(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { current: false, reason: `no TypeScript sources beside ${COMPILED_DIR} in ${root} (a revision digests them)` };
    throw error;
  }
  const differences: string[] = [];
  for (const [path, digest] of Object.entries(onDisk)) {
    const compiled = manifest.sources[path];
    if (compiled === undefined) differences.push(`${path} was added`);
    else if (compiled !== digest) differences.push(`${path} changed`);
  }
  for (const path of Object.keys(manifest.sources)) if (!(path in onDisk)) differences.push(`${path} was removed`);
  if (differences.length === 0) return { current: true, manifest };
  const more = differences.length > 1 ? ` (and ${differences.length - 1} more)` : '';
  return { current: false, reason: `${differences[0]}${more} since ${COMPILED_DIR} was compiled` };
}
