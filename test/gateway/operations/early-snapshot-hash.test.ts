/**
 * The start-up hash of a real `hra serve` process, started before the gateway's modules are loaded
 * (scripts/hra.ts, start-snapshot-hash.ts): the check takes it over, and nothing answers before it has
 * compared every segment. The snapshot is a synthetic corpus large enough (about 12 MB, over the 8 MiB
 * hashed in place) to be checked through its 1 MiB segments on workers, as a production file is.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { buildAndPublish } from '../../../build/snapshot/publish-snapshot.ts';
import { checksumFileOf, formatChecksumLine, parseChecksumLine } from '../../../build/snapshot/snapshot-checksum.ts';
import { digestFileWithSegments, formatSegmentDigests, segmentRanges, segmentsFileOf } from '../../../build/snapshot/snapshot-segments.ts';
import { generateSynthCorpus } from '../../../build/synth/generate-synth-corpus.ts';
import { openKeyStore } from '../../../gateway/keys/sqlite-key-store.ts';
import { INLINE_HASH_BYTES } from '../../../gateway/snapshot/sha256-of-descriptor.ts';
import { TEMPLATE_DIR } from '../../build/synth/synth-test-support.ts';
import { get, spawnServe } from './serve-process.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const SEGMENT = 1024 * 1024;

let dir: string;
let published: string;
let keysFile: string;
let commercialKey: string;
let city: string;
before(async () => {
  dir = makeTempDir('hra-early-hash-serve-');
  const corpusDir = join(dir, 'corpus');
  generateSynthCorpus({ template: loadCorpus(TEMPLATE_DIR), seed: 7, scale: 0.1, out: corpusDir });
  const corpus = loadCorpus(corpusDir);
  published = buildAndPublish(corpus, join(dir, 'out'), () => {}, { segmentBytes: SEGMENT }).file;
  city = corpus.manifest.defaultCity;
  keysFile = join(dir, 'keys.sqlite');
  const store = openKeyStore(keysFile, { now: () => new Date() });
  commercialKey = (await store.createKey({ tier: 'commercial', label: 'early hash test' })).key;
  await store.close();
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A loopback port free right now, for a gateway that must be asked before it prints its URL. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('hra serve: the snapshot hash started before the gateway loads', () => {
  it('is taken over by the start-up check, and began before the gateway modules were loaded', async () => {
    const size = readFileSync(published).length;
    assert.ok(size > INLINE_HASH_BYTES, `${size} bytes: large enough to be hashed on workers`);
    const serve = await spawnServe(['--dataset', published, '--keys', keysFile]);
    try {
      assert.notEqual(serve.url, '', serve.stderr());
      const checked = await serve.waitForLog((line) => line.msg === 'snapshot checked');
      assert.equal(checked.hashedEarly, true);
      const startup = await serve.waitForLog((line) => typeof line.msg === 'string' && line.msg.startsWith('start-up: '));
      const phases = startup.phasesMs as Record<string, number>;
      assert.ok(phases.hashStarted !== undefined && phases.modulesLoaded !== undefined && phases.hashDone !== undefined && phases.listening !== undefined, JSON.stringify(phases));
      assert.ok(phases.hashStarted < phases.modulesLoaded, `hash started at ${phases.hashStarted} ms, modules loaded at ${phases.modulesLoaded} ms`);
      assert.ok(phases.hashDone <= phases.listening, `hash done at ${phases.hashDone} ms, listening at ${phases.listening} ms`);
      const answer = await get(`${serve.url}/api/programs/${city}`, new Agent(), { 'X-Api-Key': commercialKey });
      assert.equal(answer.status, 200);
    } finally {
      serve.kill();
      await serve.exited;
    }
  });

  it('never answers 200, on /readyz or a data route, from a file whose last segment is damaged: it refuses the file and exits', async () => {
    const file = join(dir, 'damaged-last-segment.sqlite');
    const bytes = readFileSync(published);
    const last = segmentRanges(bytes.length, SEGMENT).length - 1;
    // One flipped bit in the last page: the very last bytes the workers hash.
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0x01;
    writeFileSync(file, bytes);
    copyFileSync(checksumFileOf(published), checksumFileOf(file));
    copyFileSync(segmentsFileOf(published), segmentsFileOf(file));

    const { statuses, serve, exit } = await serveAndAsk(file);
    assert.deepEqual(statuses, [], `answers: ${statuses.join(', ')}`);
    assert.equal(serve.url, '', 'nothing listened');
    assert.equal(exit.code, 1);
    const lines = serve.stderr().trim().split('\n');
    assert.equal(lines.length, 1, serve.stderr());
    assert.match(lines[0] ?? '', new RegExp(`^hra: snapshot .* refused: content: segment ${last} \\(bytes \\d+-${bytes.length}\\) sha256 [0-9a-f]{64} does not match [0-9a-f]{64} recorded in `));
  });

  it('refuses a damaged file whose .segments was rewritten to match it when the .sha256 binds the .segments, naming the segments file', async () => {
    const file = join(dir, 'rewritten-bound-segments.sqlite');
    const bytes = readFileSync(published);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0x01;
    writeFileSync(file, bytes);
    // The build's two-line .sha256, as published: it records the digest of the .segments the build wrote.
    copyFileSync(checksumFileOf(published), checksumFileOf(file));
    const recorded = parseChecksumLine(readFileSync(checksumFileOf(published), 'utf8')) ?? '';
    writeFileSync(segmentsFileOf(file), formatSegmentDigests({ ...digestFileWithSegments(file, SEGMENT), sha256: recorded }));

    const { statuses, serve, exit } = await serveAndAsk(file);
    assert.deepEqual(statuses, [], `answers: ${statuses.join(', ')}`);
    assert.equal(exit.code, 1);
    const lines = serve.stderr().trim().split('\n');
    assert.equal(lines.length, 1, serve.stderr());
    assert.match(lines[0] ?? '', /^hra: snapshot .* refused: checksum: .*\.segments sha256 [0-9a-f]{64} does not match [0-9a-f]{64} recorded in .*\.sha256$/);
  });

  it('refuses a damaged file whose .segments was rewritten to match it (naming the .sha256 digest), as `sha256sum -c` does, when the .sha256 is an older build\'s one line', async () => {
    const name = 'rewritten-segments.sqlite';
    const file = join(dir, name);
    const bytes = readFileSync(published);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0x01;
    writeFileSync(file, bytes);
    const recorded = parseChecksumLine(readFileSync(checksumFileOf(published), 'utf8')) ?? '';
    writeFileSync(checksumFileOf(file), formatChecksumLine(recorded, name));
    writeFileSync(segmentsFileOf(file), formatSegmentDigests({ ...digestFileWithSegments(file, SEGMENT), sha256: recorded }));
    // The operator's check of the .sha256 fails on this file...
    assert.throws(() => execFileSync('sha256sum', ['-c', '--quiet', `${name}.sha256`], { cwd: dir, stdio: 'pipe' }), /FAILED|Command failed/);

    // ...and so does the gateway's: nothing answers, one line, exit 1.
    const { statuses, serve, exit } = await serveAndAsk(file);
    assert.deepEqual(statuses, [], `answers: ${statuses.join(', ')}`);
    assert.equal(exit.code, 1);
    const lines = serve.stderr().trim().split('\n');
    assert.equal(lines.length, 1, serve.stderr());
    assert.match(lines[0] ?? '', new RegExp(`^hra: snapshot .* refused: content: file sha256 [0-9a-f]{64} does not match ${recorded} recorded in .*\\.sha256; every slice matches `));
  });
});

/** Serves `file` while a client asks /readyz and a data route every few milliseconds, from before the spawn to after the exit. */
async function serveAndAsk(file: string) {
  const port = await freePort();
  const statuses: number[] = [];
  let asking = true;
  // Asked from before the spawn to after the exit, every few milliseconds.
  const client = (async () => {
    const agent = new Agent({ keepAlive: false });
    while (asking) {
      for (const path of ['/readyz', `/api/programs/${city}`]) {
        const answer = await get(`http://127.0.0.1:${port}${path}`, agent, { 'X-Api-Key': commercialKey }).catch(() => undefined);
        if (answer !== undefined) statuses.push(answer.status);
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const serve = await spawnServe(['--dataset', file, '--keys', keysFile, '--port', String(port)]);
  if (serve.url !== '') {
    // It listened (the failure under test): let the client see what it answers, then stop it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    serve.kill();
  }
  const exit = await serve.exited;
  asking = false;
  await client;
  return { statuses, serve, exit };
}
