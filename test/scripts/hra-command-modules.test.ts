/**
 * `hra build` and the other corpus commands load only their own modules, not every command's; `hra
 * --version`, `--help` and every other command register every command but load an action's modules only
 * when that action runs (start-up CPU, BENCHMARKS.md "Start-up").
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MINI_CORPUS } from '../support/start-test-gateway.ts';
import { hraEnv, ROOT, TSX_NODE_ARGS } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const HOOK = join(ROOT, 'test/support/loaded-modules-hook.ts');

/** Runs `hra <args>` and returns its exit code, stdout, the project modules it loaded (relative to the root) and the packages. */
function loadedBy(args: readonly string[]): { status: number | null; modules: string[]; packages: string[]; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...TSX_NODE_ARGS, '--import', HOOK, join(ROOT, 'scripts/hra.ts'), ...args], { cwd: ROOT, encoding: 'utf8', env: hraEnv() });
  const line = result.stderr.split('\n').find((text) => text.startsWith('LOADED-MODULES '));
  assert.ok(line, `no LOADED-MODULES line in: ${result.stderr}`);
  const urls = JSON.parse(line.slice('LOADED-MODULES '.length)) as string[];
  const modules = urls.filter((url) => url.startsWith(`file://${ROOT}`) && !url.includes('/node_modules/')).map((url) => url.slice(`file://${ROOT}`.length).replace(/\?.*$/, ''));
  // A package's entry module (the hook sees ES modules and the CommonJS entry they import, not its own requires).
  const packages = [...new Set(urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []))].sort();
  return { status: result.status, modules, packages, stdout: result.stdout, stderr: result.stderr };
}

describe('modules a command loads', () => {
  const dir = makeTempDir('hra-command-modules-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('hra build loads neither the other commands nor the gateway', () => {
    const run = loadedBy(['build', '--corpus', MINI_CORPUS, '--out', join(dir, 'out')]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(run.modules.includes('scripts/commands/corpus-commands.ts'), run.modules.join('\n'));
    // hra.ts itself imports the start-up hash of `hra serve` (node-only modules under gateway/snapshot and
    // gateway/config); nothing else of the gateway, and no other command, is loaded.
    const others = run.modules.filter((module) =>
      /^scripts\/commands\/(register-commands|serve-command|keys-command|links-command|quotes-command|synth-command|changes-command)\.ts$|^gateway\/(app|start-gateway|keys|http|openapi)/.test(module));
    assert.deepEqual(others, []);
  });

  it('another command still has every command registered (help, suggestions)', () => {
    const run = loadedBy(['--help']);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(run.modules.includes('scripts/commands/register-commands.ts'), run.modules.join('\n'));
  });

  /**
   * What a command that registers every command must not load before an action runs: the actions, the
   * gateway, the checkers (the archive's folder layout, node-only, names `links check`'s default roll size).
   */
  const ACTION_MODULES = /-actions?\.ts$|^gateway\/(app|start-gateway|http|openapi|routes)|^build\/(archive\/(?!warc-archive-layout\.ts$)|links|quotes|reviews|audit|derive|synth|corpus\/load)|^scripts\/rehearse\//;

  for (const args of [['--version'], ['--help'], ['links', '--help']]) {
    it(`hra ${args.join(' ')} loads no command's action and no package but commander`, () => {
      const run = loadedBy(args);
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(run.packages, ['commander']);
      assert.deepEqual(run.modules.filter((module) => ACTION_MODULES.test(module)), []);
    });
  }

  it('hra --help still lists every command', () => {
    const run = loadedBy(['--help']);
    for (const command of ['validate', 'digest', 'build', 'verify', 'prune', 'keys', 'synth', 'changes', 'links', 'quotes', 'reviews', 'archive', 'audit', 'serve', 'rehearse']) {
      assert.match(run.stdout, new RegExp(`^  ${command}\\b`, 'm'), `${command} missing from:\n${run.stdout}`);
    }
  });

  it('a command loads its own action when it runs, not its sibling\'s nor the fetcher', () => {
    const run = loadedBy(['links', 'report', '--corpus', MINI_CORPUS]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(run.modules.includes('scripts/commands/links-report-action.ts'), run.modules.join('\n'));
    assert.ok(!run.modules.includes('scripts/commands/links-check-action.ts'), run.modules.join('\n'));
    assert.ok(!run.packages.includes('undici'), run.packages.join(' '));
  });
});
