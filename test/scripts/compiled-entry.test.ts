/**
 * The production start (docs/operators.md "Running in production"): `npm run compile`, then the gateway from the
 * compiled JavaScript with no TypeScript loader. It must serve like `npm run hra -- serve`. The build-side
 * commands run compiled too, to the revision and the bytes the sources give, in every thread without tsx,
 * and only while the sources are those dist/js was compiled from (its compile manifest).
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { openKeyStore } from '../../gateway/keys/sqlite-key-store.ts';
import { makeTestPdf } from '../support/make-test-pdf.ts';
import { hraEnv, ROOT, TSX_NODE_ARGS, waitForListening } from '../support/run-hra.ts';
import { buildTestSnapshot, MINI_CORPUS } from '../support/start-test-gateway.ts';
import type { ProgramList } from '../../build/contract/program-list-schema.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const COMPILED_HRA = 'dist/js/scripts/hra.js';

let compiled = false;
/** `npm run compile`, once for this file's suites (about ten seconds). */
function compileOnce(): void {
  if (!compiled) execFileSync('npm', ['run', '--silent', 'compile'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  compiled = true;
}

describe('compiled entry (npm run compile)', () => {
  let dir: string;
  before(() => {
    dir = makeTempDir('hra-compiled-');
    compileOnce();
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
});

describe('build-side commands, compiled (npm run compile)', () => {
  const dir = makeTempDir('hra-compiled-build-');
  const corpus = join(dir, 'corpus');
  // A copy of the package as `npm pack` ships it (sources, dist/js, package.json) whose node_modules
  // has every package but tsx: a thread of the build that loaded tsx would fail there.
  const pkg = join(dir, 'pkg');
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs node with these arguments to completion, with the test's environment (no HRA_*). */
  const node = (args: readonly string[], cwd = ROOT) => spawnSync(process.execPath, args, { cwd, env: hraEnv(), encoding: 'utf8', timeout: 300_000 });
  const fromSources = (args: readonly string[], root = ROOT) => node(['--max-old-space-size=768', ...TSX_NODE_ARGS, join(root, 'scripts/hra.ts'), ...args], root);
  const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';
  /** Every file of a build's output folder (name, then bytes), and the file current.sqlite points at. */
  const published = (out: string) => ({
    files: readdirSync(out).sort().map((name) => [name, readFileSync(join(out, name)).toString('base64')]),
    current: realpathSync(join(out, 'current.sqlite')),
  });

  let revision = '';
  before(() => {
    compileOnce();
    // 220 live cities: enough that the build starts its worker threads (MIN_CITIES_FOR_WORKERS).
    const synth = fromSources(['synth', '--seed', '1', '--scale', '0.1', '--out', corpus]);
    assert.equal(synth.status, 0, synth.stderr);
    for (const path of ['build', 'gateway', 'scripts', 'dist/js', 'package.json']) cpSync(join(ROOT, path), join(pkg, path), { recursive: true });
    mkdirSync(join(pkg, 'node_modules'));
    for (const name of readdirSync(join(ROOT, 'node_modules'))) if (name !== 'tsx') symlinkSync(join(ROOT, 'node_modules', name), join(pkg, 'node_modules', name));
  });

  it('builds the same files, to the same revision, as the sources do; digest and verify agree', () => {
    const viaTsx = fromSources(['build', '--corpus', corpus, '--out', join(dir, 'out-tsx')]);
    assert.equal(viaTsx.status, 0, viaTsx.stderr);
    const compiled = node([COMPILED_HRA, 'build', '--corpus', corpus, '--out', join(dir, 'out-compiled')]);
    assert.equal(compiled.status, 0, compiled.stderr);
    revision = lastLine(viaTsx.stdout);
    assert.match(revision, /^gm1-[0-9a-f]{64}$/);
    assert.equal(lastLine(compiled.stdout), revision);
    const [a, b] = [published(join(dir, 'out-tsx')), published(join(dir, 'out-compiled'))];
    assert.deepEqual(b.files, a.files);
    assert.equal(b.current.slice(-75), a.current.slice(-75));
    const digest = node([COMPILED_HRA, 'digest', '--corpus', corpus]);
    assert.equal(digest.status, 0, digest.stderr);
    assert.equal(lastLine(digest.stdout), revision);
    const verify = node([COMPILED_HRA, 'verify', join(dir, 'out-tsx', 'current.sqlite'), '--corpus', corpus]);
    assert.equal(verify.status, 0, verify.stderr);
  });

  it('runs the launcher\'s build compiled, on its worker threads, where tsx is not installed', () => {
    assert.ok(revision !== '', 'the first test built the reference');
    // The copy cannot load tsx at all, so this test cannot pass by a thread that used it.
    const tsx = node(['--input-type=module', '-e', 'await import("tsx")'], pkg);
    assert.notEqual(tsx.status, 0, 'tsx must not resolve in the copy');
    const built = node([join(pkg, 'scripts/hra-bin.js'), 'build', '--corpus', corpus, '--out', join(dir, 'out-pkg')], pkg);
    assert.equal(built.status, 0, built.stderr);
    assert.match(built.stderr, /\(\d+ worker threads\)/, 'the build ran on worker threads');
    assert.equal(lastLine(built.stdout), revision);
    assert.deepEqual(published(join(dir, 'out-pkg')).files, published(join(dir, 'out-tsx')).files);
  });

  it('reads pages in compiled extraction children where tsx is not installed', async () => {
    const pdf = Buffer.from(await makeTestPdf({ kind: 'text', pages: [['Up to $5,000 for roof repairs.']] })).toString('base64');
    const script = `
      const { createPageTextExtractor } = await import(${JSON.stringify(pathToFileURL(join(pkg, 'dist/js/build/quotes/create-page-text-extractor.js')).href)});
      const extractor = createPageTextExtractor();
      const html = await extractor.extract({ body: Buffer.from('<p>Up to $10,000 in repairs.</p>'), contentType: 'text/html', complete: true }, ['up to $10,000']);
      const pdf = await extractor.extract({ body: Buffer.from('${pdf}', 'base64'), contentType: 'application/pdf', complete: true }, ['up to $5,000']);
      await extractor.close();
      process.stdout.write(JSON.stringify([html.kind, html.found, pdf.kind, pdf.found, pdf.reason]));
    `;
    const read = node(['--input-type=module', '-e', script], pkg);
    assert.equal(read.status, 0, read.stderr);
    assert.deepEqual(JSON.parse(read.stdout), ['judged', [true], 'judged', [true], null]);
  });

  it('runs the sources where there is no dist/js (a fresh clone), through the launcher', () => {
    const clone = join(dir, 'clone');
    for (const path of ['build', 'gateway', 'scripts', 'package.json']) cpSync(join(ROOT, path), join(clone, path), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    const digest = node([join(clone, 'scripts/hra-bin.js'), 'digest', '--corpus', corpus], clone);
    assert.equal(digest.status, 0, digest.stderr);
    assert.equal(lastLine(digest.stdout), revision);
  });

  it('refuses the build-side commands of a dist/js shipped without its sources, on one line', () => {
    const bare = join(dir, 'bare');
    for (const path of ['dist/js', 'package.json']) cpSync(join(ROOT, path), join(bare, path), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(bare, 'node_modules'));
    const out = join(dir, 'out-bare');
    const refused = node([join(bare, COMPILED_HRA), 'build', '--corpus', corpus, '--out', out], bare);
    assert.equal(refused.status, 1, refused.stderr);
    assert.deepEqual(refused.stderr.trimEnd().split('\n'), [`hra: cannot run compiled: no TypeScript sources beside dist/js in ${bare}/ (a revision digests them); run npm run compile, or run from the sources (npm run hra)`]);
    assert.equal(existsSync(out), false);
  });

  describe('after a source is edited (dated before the compile, so no modification time gives it away)', () => {
    let before: ReturnType<typeof published>;
    const out = join(dir, 'out-pkg');
    it('refuses the compiled build on one line, and leaves the published revision untouched', () => {
      before = published(out);
      const rule = join(pkg, 'build/derive/income-tier.ts');
      appendFileSync(rule, '// edited after compiling\n');
      utimesSync(rule, new Date('2000-01-01'), new Date('2000-01-01'));
      for (const args of [['build', '--corpus', corpus, '--out', out], ['digest', '--corpus', corpus]]) {
        const refused = node([join(pkg, COMPILED_HRA), ...args], pkg);
        assert.equal(refused.status, 1, refused.stderr);
        assert.equal(refused.stdout, '');
        assert.deepEqual(refused.stderr.trimEnd().split('\n'), ['hra: cannot run compiled: build/derive/income-tier.ts changed since dist/js was compiled; run npm run compile, or run from the sources (npm run hra)']);
      }
      assert.deepEqual(published(out), before);
    });

    it('refuses in the compiled enrichment digest itself, whoever calls it', () => {
      const digest = node(['--input-type=module', '-e', `const m = await import(${JSON.stringify(join(pkg, 'dist/js/build/revision/enrichment-digest.js'))}); m.computeEnrichmentDigest();`], pkg);
      assert.notEqual(digest.status, 0);
      assert.match(digest.stderr, /StaleCompileError: the sources in .*\/build\/\{derive,contract\} are not those dist\/js was compiled from/);
    });

    it('makes the launcher run the edited sources through tsx instead, to the revision they give', () => {
      symlinkSync(join(ROOT, 'node_modules', 'tsx'), join(pkg, 'node_modules', 'tsx'));
      const built = node([join(pkg, 'scripts/hra-bin.js'), 'build', '--corpus', corpus, '--out', out], pkg);
      assert.equal(built.status, 0, built.stderr);
      const edited = lastLine(built.stdout);
      assert.notEqual(edited, revision);
      assert.equal(edited, lastLine(fromSources(['digest', '--corpus', corpus], pkg).stdout));
      assert.notEqual(published(out).current, before.current);
    });
  });
});
