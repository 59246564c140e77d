import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { drivesLoad, parseBenchOptions } from '../../../scripts/bench/bench-options.ts';
import { pickLoadGenerator, WRK_REQUIRED } from '../../../scripts/bench/load-generator.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

describe('the bench without wrk', () => {
  const empty = makeTempDir('hra-no-wrk-');
  after(() => rmSync(empty, { recursive: true, force: true }));

  it('picks wrk when PATH has it and refuses when it does not, with no other client', () => {
    const withWrk = makeTempDir('hra-wrk-');
    try {
      writeFileSync(join(withWrk, 'wrk'), '#!/bin/sh\n');
      chmodSync(join(withWrk, 'wrk'), 0o755);
      assert.equal(pickLoadGenerator(1, `${empty}:${withWrk}`).name, 'wrk (1 thread)');
      assert.throws(() => pickLoadGenerator(1, empty), (error: Error) => error.message === WRK_REQUIRED);
    } finally {
      rmSync(withWrk, { recursive: true, force: true });
    }
  });

  it('`npm run bench` prints one line and exits non-zero before compiling or building anything', () => {
    // node itself is named by its absolute path: PATH holds nothing, wrk least of all.
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--quick', '--out', join(empty, 'never.md')], { encoding: 'utf8', env: { ...process.env, PATH: empty } });
    assert.equal(result.status, 1);
    // Exactly this line: not even the bench's first progress line, written once its work folder exists.
    assert.equal(result.stderr, `hra bench: ${WRK_REQUIRED}\n`);
    assert.match(result.stderr, /^hra bench: wrk is required/);
    assert.equal(result.stdout, '');
  });

  it('needs wrk only for the modes that drive load', () => {
    const table: [string[], boolean][] = [
      [[], true],
      [['--quick'], true],
      [['--compare', 'main'], true],
      [['--no-redis', '--no-postgres'], true],
      [['--startup'], false],
      [['--startup', '--compare', 'main', '--scale', '10'], false],
      [['--links'], false],
      [['--hostile-pages'], false],
      [['--reviews'], false],
      [['--reviews', '--quick'], false],
    ];
    for (const [args, expected] of table) assert.equal(drivesLoad(parseBenchOptions(args)), expected, args.join(' '));
  });

  it('`npm run bench -- --startup` goes past the wrk check without wrk (and stops here at a failing npm)', () => {
    // PATH holds only an npm that fails at once, so the run stops at its first step (compiling) instead of
    // building and timing for minutes: what is tested is that the missing wrk did not stop it first.
    const stub = makeTempDir('hra-no-wrk-npm-');
    try {
      writeFileSync(join(stub, 'npm'), '#!/bin/sh\necho "stub npm: $*" >&2\nexit 3\n');
      chmodSync(join(stub, 'npm'), 0o755);
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--startup', '--quick', '--out', join(empty, 'never.md')], { encoding: 'utf8', env: { ...process.env, PATH: stub } });
      assert.doesNotMatch(result.stderr, /wrk is required/);
      assert.match(result.stderr, /^bench: npm run bench -- --startup --quick --out \S+ in \S+hra-bench-/);
      assert.match(result.stderr, /\nhra bench: run compile failed \(3\): stub npm: run --silent compile\n$/);
      assert.equal(result.status, 1);
    } finally {
      rmSync(stub, { recursive: true, force: true });
    }
  });
});

describe('the wrk client', () => {
  it('drives a loopback server and leaves no script folder behind once the bench exits', async () => {
    const { readdirSync } = await import('node:fs');
    const folders = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('hra-bench-wrk-')));
    const before = folders();
    const child = `
import { createServer } from 'node:http';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pickLoadGenerator } from './scripts/bench/load-generator.ts';
const server = createServer((_, response) => response.end('ok')).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const result = await pickLoadGenerator(1).run({ origin: 'http://127.0.0.1:' + server.address().port, path: '/', headers: { 'X-Api-Key': 'k' } }, 1, 2);
process.stdout.write(JSON.stringify({ requests: result.requests, folders: readdirSync(tmpdir()).filter((name) => name.startsWith('hra-bench-wrk-')) }));
server.close();
`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    const seen = JSON.parse(result.stdout) as { requests: number; folders: string[] };
    assert.ok(seen.requests > 0, 'wrk sent requests');
    const made = seen.folders.filter((name) => !before.has(name));
    assert.equal(made.length, 1, 'one folder for the scripts while the bench runs');
    assert.equal(folders().has(made[0] as string), false, 'removed when the bench exited');
  });
});
