/**
 * The second tree of `npm run bench -- --compare <ref>`: the ref's files extracted with `git archive` into
 * a temporary folder (no worktree entry in the shared repository to leave behind), this tree's
 * node_modules reused through a symlink when both package-lock.json files are byte for byte the same
 * (else `npm ci` there), and compiled with its own `npm run compile`. Removed on `remove()`, on exit and on
 * SIGINT/SIGTERM, whichever comes first.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The ref's tree, ready to build and serve. */
export interface ComparedTree {
  /** The folder holding the ref's files: a project root like this one. */
  readonly root: string;
  /** The full commit the ref named. */
  readonly commit: string;
  /** How its dependencies were provided: `symlink` or `npm ci`. */
  readonly nodeModules: 'symlink' | 'npm ci';
  readonly compileSeconds: number;
  remove(): void;
}

/** The commit `ref` names in the repository at `root`; throws one line when it names none. */
export function resolveCommit(root: string, ref: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    throw new Error(`--compare ${ref}: not a commit in ${root}`);
  }
}

/** Whether the two trees can share one node_modules: their package-lock.json files are identical. */
export function sameLockfile(rootA: string, rootB: string): boolean {
  const read = (root: string) => (existsSync(join(root, 'package-lock.json')) ? readFileSync(join(root, 'package-lock.json')) : undefined);
  const [a, b] = [read(rootA), read(rootB)];
  return a !== undefined && b !== undefined && a.equals(b);
}

/** Extracts, provisions and compiles `ref`'s tree next to nothing of this one's. */
export async function materializeTree(root: string, ref: string, progress: (line: string) => void): Promise<ComparedTree> {
  const commit = resolveCommit(root, ref);
  const folder = mkdtempSync(join(tmpdir(), `hra-bench-compare-${commit.slice(0, 8)}-`));
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.off('exit', remove);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    rmSync(folder, { recursive: true, force: true });
  };
  // A signal's default action would skip 'exit' handlers: remove the tree, then die as the signal would.
  const interrupted = (signal: NodeJS.Signals) => {
    remove();
    process.kill(process.pid, signal);
  };
  process.once('exit', remove);
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await pipeArchive(root, commit, folder);
    const shared = sameLockfile(root, folder);
    if (shared) symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'), 'dir');
    else {
      progress(`bench: ${ref} has another package-lock.json: npm ci in ${folder}`);
      await runIn(folder, 'npm', ['ci', '--no-audit', '--no-fund']);
    }
    const started = performance.now();
    await runIn(folder, 'npm', ['run', '--silent', 'compile']);
    const compileSeconds = (performance.now() - started) / 1000;
    progress(`bench: ${ref} (${commit.slice(0, 12)}) extracted to ${folder}, node_modules by ${shared ? 'symlink' : 'npm ci'}, compiled in ${compileSeconds.toFixed(1)} s`);
    return { root: folder, commit, nodeModules: shared ? 'symlink' : 'npm ci', compileSeconds, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** `git archive <commit> | tar -x -C <folder>`, without a shell. */
async function pipeArchive(root: string, commit: string, folder: string): Promise<void> {
  const archive = spawn('git', ['archive', '--format=tar', commit], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const tar = spawn('tar', ['-x', '-C', folder], { stdio: ['pipe', 'ignore', 'pipe'] });
  archive.stdout.pipe(tar.stdin);
  const [archiveCode, tarCode] = await Promise.all([exitOf(archive), exitOf(tar)]);
  if (archiveCode !== 0 || tarCode !== 0) throw new Error(`git archive ${commit} | tar -x failed (${archiveCode}, ${tarCode})`);
}

async function runIn(cwd: string, command: string, args: readonly string[]): Promise<void> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await exitOf(child);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} in ${cwd} exited ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}`);
}

function exitOf(child: ReturnType<typeof spawn>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
}
