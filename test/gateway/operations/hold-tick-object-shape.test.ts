/**
 * holdTickObjectShape against the V8 behaviour it works around: in a child process, nextTick's tick literal
 * is warmed, left with no tick object alive, collected, and run once more. Without a held tick object the
 * literal's recorded maps are freed and its property definitions turn megamorphic (the slow path every
 * later tick object takes); with one held they stay monomorphic. The first case is what makes the module
 * needed: when a Node release no longer shows it, the module and this test can go.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { holdTickObjectShape } from '../../../gateway/operations/hold-tick-object-shape.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const CHILD = fileURLToPath(new URL('./tick-literal-states.ts', import.meta.url));
const dir = makeTempDir('hra-tick-shape-');

/** The states V8 printed for the tick literal's property definitions, one per property. */
async function literalStates(mode: 'hold' | 'none'): Promise<string[]> {
  // %DebugPrint writes through C's stdio: into a pipe, what is still buffered when the child exits can be
  // lost, so its stdout is a file. Without the test runner's context variable, which would make the child
  // report to the runner instead of printing.
  const out = join(dir, `${mode}.txt`);
  const fd = openSync(out, 'w');
  const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
  try {
    const child = spawn(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', CHILD, mode], { env, stdio: ['ignore', fd, 'inherit'] });
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0, `the child exited with ${code}`);
  } finally {
    closeSync(fd);
  }
  return [...readFileSync(out, 'utf8').matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1] as string);
}

describe('holdTickObjectShape', () => {
  it('holds a tick object, once per process', () => {
    assert.equal(holdTickObjectShape(), true);
    assert.equal(holdTickObjectShape(), true);
  });

  it('without it, an idle collection turns the tick literal megamorphic', async () => {
    const states = await literalStates('none');
    // The literal defines four properties (two async-id symbols, callback, args).
    assert.equal(states.length, 4, `expected four property definitions in nextTick's feedback, got ${JSON.stringify(states)}`);
    assert.ok(states.includes('MEGAMORPHIC'), `expected a megamorphic definition, got ${JSON.stringify(states)}`);
  });

  it('with it, the tick literal stays monomorphic through the same collections', async () => {
    const states = await literalStates('hold');
    assert.deepEqual(states, ['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
  });
});
