/**
 * `hra build --out <folder it cannot write>` refuses before any work, on one line naming `--out`, exit 1.
 * Root writes into a mode 0555 folder, so under root that case runs the CLI as `nobody`; a read-only file
 * system stops root too, and is made with a private mount namespace (`unshare -m`) where that is allowed.
 */
import * as assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { hraEnv, ROOT, stderrLines, TSX_NODE_ARGS, type HraRun } from '../support/run-hra.ts';
import { MINI_CORPUS } from '../support/start-test-gateway.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const NOBODY = 65_534;
const isRoot = process.getuid?.() === 0;
const dir = makeTempDir('hra-build-unwritable-');
// Under root the build runs as nobody, who must reach the folders inside.
chmodSync(dir, 0o755);
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `command args` (by default node with the tsx loader and hra) and captures how it ended. */
function run(command: string, args: readonly string[], options: SpawnSyncOptions = {}): HraRun {
  const result = spawnSync(command, args, { cwd: ROOT, env: hraEnv(), encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL', ...options });
  return { status: result.status, signal: result.signal, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const hraBuild = (out: string): string[] => [...TSX_NODE_ARGS, join(ROOT, 'scripts/hra.ts'), 'build', '--corpus', join(ROOT, MINI_CORPUS), '--out', out];

/** Why the mode-0555 case cannot run here, or false: under root it needs `nobody` to read the project. */
function nobodySkip(): string | false {
  if (!isRoot) return false;
  if (process.platform !== 'linux') return 'needs Linux to run as nobody';
  const reads = spawnSync(process.execPath, ['-e', 'require("node:fs").accessSync(process.argv[1], require("node:fs").constants.R_OK)', join(ROOT, 'scripts/hra.ts')], { uid: NOBODY, gid: NOBODY });
  return reads.status === 0 ? false : 'running as root, and nobody cannot read the project to run hra as nobody';
}

/** Whether this process may mount a read-only tmpfs in a private mount namespace. */
function canMountReadOnly(): boolean {
  const probe = join(dir, 'mount-probe');
  mkdirSync(probe);
  return run('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o ro tmpfs "$1"', 'sh', probe]).status === 0;
}

/** Refused before any work: exit 1, nothing on stdout, one stderr line (no `build: revision` line before it). */
function assertRefused(result: HraRun, out: string, reason: string): void {
  assert.equal(result.status, 1, result.stderr);
  assert.equal(result.stdout, '');
  assert.deepEqual(stderrLines(result), [`hra: --out ${out}: output folder is not writable (${reason})`]);
}

describe('hra build --out a folder it cannot write', () => {
  it('mode 0555 (as nobody under root): one line naming --out, exit 1, nothing written', { skip: nobodySkip() }, () => {
    const out = join(dir, 'read-only');
    mkdirSync(out);
    chmodSync(out, 0o555);
    const result = run(process.execPath, hraBuild(out), isRoot ? { uid: NOBODY, gid: NOBODY } : {});
    assertRefused(result, out, 'permission denied');
    assert.deepEqual(readdirSync(out), []);
  });

  it('on a read-only file system (even for root): one line naming --out, exit 1', { skip: canMountReadOnly() ? false : 'cannot mount a read-only tmpfs here (unshare -m needs privileges)' }, () => {
    const out = join(dir, 'read-only-mount');
    mkdirSync(out);
    // The mount lives only in the namespace of this one command, so it needs no unmounting.
    const result = run('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o ro tmpfs "$1" && shift && exec "$@"', 'sh', out, process.execPath, ...hraBuild(out)]);
    assertRefused(result, out, 'read-only file system');
  });

  it('a writable folder still builds (the probe leaves nothing behind)', () => {
    const out = join(dir, 'writable');
    mkdirSync(out);
    const result = run(process.execPath, hraBuild(out));
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(readdirSync(out).filter((name) => name.startsWith('.')), []);
  });
});
