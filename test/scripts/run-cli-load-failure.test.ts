import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { ROOT } from '../support/run-hra.ts';

/**
 * A command whose action loads its modules when it runs (as every `hra` command does, through loadModules),
 * run through runCli with and without the load-failure line hra gives it. `action` is the action's body.
 */
const MISSING_ACTION = "await loadModules(() => import('./scripts/commands/no-such-action.ts'));";

function runFailingLoad(withDescription: boolean, json: boolean, action = MISSING_ACTION) {
  const code = `
    import { Command } from 'commander';
    import { runCli } from './scripts/run-cli.ts';
    import { describeLoadFailure } from './scripts/describe-load-failure.ts';
    import { loadModules } from './scripts/module-load-failure.ts';
    const program = new Command('hra');
    program.command('lazy').option('--json').action(async () => { ${action} });
    const options = ${withDescription} ? { describeLoadFailure: (error) => describeLoadFailure(error, 64) } : {};
    process.exitCode = await runCli(program, ['lazy'${json ? ", '--json'" : ''}], 'user', options);
  `;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
}

describe('a command whose action cannot load', () => {
  it('fails on the one line hra gives its own modules, naming the open-file limit, exit 1', () => {
    const run = runFailingLoad(true, false);
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    assert.equal(run.status, 1, run.stderr);
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0] ?? '', /^hra: cannot load hra: Cannot find module .*no-such-action\.ts.*: the open-file limit \(ulimit -n\) is 64, too low to load hra/);
  });

  it('gives the same line as the --json failure object', () => {
    const run = runFailingLoad(true, true);
    assert.equal(run.status, 1, run.stderr);
    const last = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as { ok: boolean; error: string };
    assert.equal(last.ok, false);
    assert.match(last.error, /^cannot load hra: /);
  });

  it('names the open-file limit when the loader ran out of descriptors', () => {
    const emfile = "await loadModules(() => Promise.reject(Object.assign(new Error('EMFILE: too many open files, open \\'/x.ts\\''), { code: 'EMFILE' })));";
    const run = runFailingLoad(true, false, emfile);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /^hra: cannot load hra: EMFILE: too many open files.*: the open-file limit \(ulimit -n\) is 64, too low to load hra; raise it to 256 or more\n$/);
  });

  it('leaves a not-found the command itself met, once loaded, to be its own failure (exit 70), not a load failure', () => {
    // A command may read a module path of its own (a plugin, a config); that it is missing is no hra load failure.
    const own = "await loadModules(() => import('node:path')); throw Object.assign(new Error('Cannot find module ./plugin.js'), { code: 'ERR_MODULE_NOT_FOUND' });";
    const run = runFailingLoad(true, false, own);
    assert.equal(run.status, 70, run.stderr);
    assert.match(run.stderr, /^hra: unexpected failure: Cannot find module \.\/plugin\.js\n$/);
  });

  it('is an unexpected failure (exit 70) where no such line is given', () => {
    const run = runFailingLoad(false, false);
    assert.equal(run.status, 70, run.stderr);
    assert.match(run.stderr, /^hra: unexpected failure: Cannot find module /);
  });
});
