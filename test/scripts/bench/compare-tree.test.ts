import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { COMPILED_HRA } from '../../../scripts/bench/bench-gateway.ts';

// The real thing in a child process: git archive of HEAD, node_modules by symlink, its own `npm run
// compile` (about 15 s), then SIGINT, as a user stopping a comparison half-way would send.
const CHILD = `
import { materializeTree } from './scripts/bench/compare-tree.ts';
const tree = await materializeTree(process.cwd(), 'HEAD', () => {});
process.stdout.write(JSON.stringify({ root: tree.root, commit: tree.commit, nodeModules: tree.nodeModules }) + '\\n');
setInterval(() => {}, 1000);
`;

describe('materializeTree', () => {
  it('extracts and compiles the ref with this tree\'s node_modules, and removes it on SIGINT', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('\n')) resolve(stdout.split('\n')[0] as string);
      });
      child.once('exit', (code) => reject(new Error(`child exited ${code} before the tree was ready: ${stderr}`)));
    });
    const tree = JSON.parse(line) as { root: string; commit: string; nodeModules: string };
    try {
      assert.equal(tree.nodeModules, 'symlink', 'HEAD has this tree\'s package-lock.json unless it is uncommitted');
      assert.ok(lstatSync(join(tree.root, 'node_modules')).isSymbolicLink());
      assert.ok(existsSync(join(tree.root, COMPILED_HRA)), 'compiled by its own npm run compile');
      assert.equal(readFileSync(join(tree.root, 'package.json'), 'utf8'), readFileSync('package.json', 'utf8'));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      child.kill('SIGINT');
      assert.equal(await exited, 'SIGINT', 'it dies of the signal, as it would have without the handler');
      assert.equal(existsSync(tree.root), false, 'the temporary tree is gone');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
