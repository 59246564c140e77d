/**
 * The `hra` command (package.json `bin`, scripts/hra-bin.js): `npx hra` in this clone, and the launcher of
 * a packed tarball installed the way `npm install -g` lays it out (prefix/lib/node_modules/<name>, and
 * prefix/bin/hra linking to the launcher). The install's dependencies are this clone's node_modules:
 * `npm install -g` itself needs the registry or a full cache, which tests must not rely on.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openKeyStore } from '../../gateway/keys/sqlite-key-store.ts';
import { hraEnv, ROOT, waitForListening } from '../support/run-hra.ts';
import { MINI_CORPUS } from '../support/start-test-gateway.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const dir = makeTempDir('hra-bin-');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command to completion with the test's environment (no HRA_* of the caller). */
function run(file: string, args: readonly string[], cwd = ROOT): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(file, args, { cwd, env: hraEnv(), encoding: 'utf8', timeout: 300_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npx hra, in the clone', () => {
  it('prints the help', () => {
    const help = run('npx', ['--no-install', 'hra', '--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage: hra \[options\] \[command\]/);
    assert.match(help.stdout, /\bserve \[options\]/);
  });

  it('runs a build-side command: digest prints the revision npm run hra prints', () => {
    const viaBin = run('npx', ['--no-install', 'hra', 'digest', '--corpus', MINI_CORPUS]);
    const viaScript = run('npm', ['run', '--silent', 'hra', '--', 'digest', '--corpus', MINI_CORPUS]);
    assert.equal(viaBin.status, 0, viaBin.stderr);
    assert.match(viaBin.stdout, /^gm1-[0-9a-f]{64}\n$/);
    assert.equal(viaBin.stdout, viaScript.stdout);
  });
});

describe('hra from a packed tarball, laid out as a global install', () => {
  const prefix = join(dir, 'prefix');
  const installed = join(prefix, 'lib', 'node_modules', 'home-repair-api');
  const hra = join(prefix, 'bin', 'hra');
  let files: string[] = [];

  before(() => {
    // npm pack runs prepack (npm run compile), so the tarball carries dist/js.
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = packed[0]?.files.map((file) => file.path) ?? [];
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['xzf', join(dir, packed[0]?.filename ?? ''), '-C', installed, '--strip-components=1']);
    symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'));
    mkdirSync(join(prefix, 'bin'));
    symlinkSync('../lib/node_modules/home-repair-api/scripts/hra-bin.js', hra);
  });

  it('holds the launcher, the sources, the compiled CLI with what it was compiled from, the demo corpus and the docs the README links to, and no tests', () => {
    for (const path of ['scripts/hra-bin.js', 'scripts/hra.ts', 'build/derive', 'dist/js/scripts/hra.js', 'dist/js/compile-manifest.json', 'corpus/manifest.json', 'package.json', 'README.md', 'docs/operators.md', 'docs/consumers.md', 'BENCHMARKS.md']) {
      assert.ok(files.some((file) => file === path || file.startsWith(`${path}/`)), `${path} is packed`);
    }
    assert.equal(files.filter((file) => file.startsWith('test/')).length, 0);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    assert.deepEqual(manifest.bin, { hra: 'scripts/hra-bin.js' });
  });

  it('prints its version from any directory', () => {
    const version = run(hra, ['--version'], dir);
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout.trim(), (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
  });

  it('builds (compiled: the packed sources are those compiled), to the revision the clone digests', () => {
    const out = join(dir, 'out');
    const built = run(hra, ['build', '--corpus', join(ROOT, MINI_CORPUS), '--out', out], dir);
    assert.equal(built.status, 0, built.stderr);
    assert.equal(built.stdout, run('npx', ['--no-install', 'hra', 'digest', '--corpus', MINI_CORPUS]).stdout);
  });

  it('issues a key and serves a licensed request (keys and serve)', async () => {
    const keys = join(dir, 'keys.sqlite');
    openKeyStore(keys, { now: () => new Date() }).close();
    const created = run(hra, ['keys', 'create', '--keys', keys, '--tier', 'commercial', '--json'], dir);
    assert.equal(created.status, 0, created.stderr);
    const { key } = JSON.parse(created.stdout.trim().split('\n').at(-1) ?? '') as { key: string };
    const child = spawn(hra, ['serve', '--dataset', join(dir, 'out', 'current.sqlite'), '--keys', keys, '--port', '0', '--log-level', 'silent'], { cwd: dir, env: hraEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const { url } = await waitForListening(child, 60_000);
      const response = await fetch(`${url}/api/programs/alpha`, { headers: { 'X-Api-Key': key } });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('x-dataset-revision') ?? '', /^gm1-[0-9a-f]{64}$/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
