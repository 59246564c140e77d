/** `hra build` and the other corpus commands load only their own modules, not every command's (start-up CPU). */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MINI_CORPUS } from '../support/start-test-gateway.ts';
import { hraEnv, ROOT, TSX_NODE_ARGS } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const HOOK = join(ROOT, 'test/support/loaded-modules-hook.ts');

/** Runs `hra <args>` and returns its exit code and the project modules it loaded, relative to the root. */
function loadedBy(args: readonly string[]): { status: number | null; modules: string[]; stderr: string } {
  const result = spawnSync(process.execPath, [...TSX_NODE_ARGS, '--import', HOOK, join(ROOT, 'scripts/hra.ts'), ...args], { cwd: ROOT, encoding: 'utf8', env: hraEnv() });
  const line = result.stderr.split('\n').find((text) => text.startsWith('LOADED-MODULES '));
  assert.ok(line, `no LOADED-MODULES line in: ${result.stderr}`);
  const urls = JSON.parse(line.slice('LOADED-MODULES '.length)) as string[];
  const modules = urls.filter((url) => url.startsWith(`file://${ROOT}`) && !url.includes('/node_modules/')).map((url) => url.slice(`file://${ROOT}`.length).replace(/\?.*$/, ''));
  return { status: result.status, modules, stderr: result.stderr };
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
});
