/**
 * The production start (README "Running in production"): `npm run compile`, then the gateway from the
 * compiled JavaScript with no TypeScript loader. It must serve like `npm run hra -- serve`, and the
 * build must refuse to run compiled, since its revision digests the TypeScript sources.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openKeyStore } from '../../gateway/keys/sqlite-key-store.ts';
import { waitForListening } from '../support/run-hra.ts';
import { buildTestSnapshot, MINI_CORPUS } from '../support/start-test-gateway.ts';
import type { ProgramList } from '../../build/contract/program-list-schema.ts';

const COMPILED_HRA = 'dist/js/scripts/hra.js';

describe('compiled entry (npm run compile)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hra-compiled-'));
    execFileSync('npm', ['run', '--silent', 'compile'], { stdio: ['ignore', 'ignore', 'pipe'] });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('emits the CLI as JavaScript', () => {
    assert.ok(existsSync(COMPILED_HRA), `${COMPILED_HRA} was emitted`);
  });

  it('serves a licensed collection with plain node, no tsx', async () => {
    const keysFile = join(dir, 'keys.sqlite');
    const store = openKeyStore(keysFile, { now: () => new Date() });
    const { key } = await store.createKey({ tier: 'commercial' });
    await store.close();
    const child = spawn(process.execPath, [COMPILED_HRA, 'serve', '--dataset', buildTestSnapshot(), '--keys', keysFile, '--port', '0', '--log-level', 'silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const { url } = await waitForListening(child, 30_000);
      const response = await fetch(`${url}/api/programs/alpha`, { headers: { 'X-Api-Key': key } });
      const body = (await response.json()) as Partial<ProgramList>;
      assert.equal(response.status, 200);
      assert.equal(body.city, 'alpha');
      assert.ok(Array.isArray(body.programs) && body.programs.length > 0);
      assert.match(response.headers.get('x-dataset-revision') ?? '', /^gm1-[0-9a-f]{64}$/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  it('prints the version of package.json with --version', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    assert.equal(execFileSync(process.execPath, [COMPILED_HRA, '--version'], { encoding: 'utf8' }), `${version}\n`);
  });

  const buildSide: ReadonlyArray<[string, () => string[]]> = [
    ['digest', () => ['digest', '--corpus', MINI_CORPUS]],
    ['build', () => ['build', '--corpus', MINI_CORPUS, '--out', join(dir, 'out')]],
    ['verify', () => ['verify', buildTestSnapshot(), '--corpus', MINI_CORPUS]],
    ['changes detect', () => ['changes', 'detect', '--previous', buildTestSnapshot(), '--corpus', MINI_CORPUS, '--at', '2026-11-16T06:00:00Z']],
  ];
  for (const [name, args] of buildSide) {
    it(`${name} refuses to run from the compiled output at once, on one line naming why (not as an unexpected failure)`, () => {
      let failure: { status: number | null; stderr: string } | undefined;
      try {
        execFileSync(process.execPath, [COMPILED_HRA, ...args()], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
      } catch (error) {
        failure = error as { status: number | null; stderr: string };
      }
      assert.ok(failure, `hra ${name} failed when run compiled`);
      assert.equal(failure.status, 1);
      // Refused before the corpus is read: no progress lines, just the reason.
      const lines = failure.stderr.trim().split('\n');
      assert.equal(lines.length, 1, failure.stderr);
      assert.match(lines[0] ?? '', /^hra: no TypeScript sources in .*dist\/js\/build\/derive: run the build from the sources/);
    });
  }
});
