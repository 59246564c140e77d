/**
 * The child processes that read pages: a child past its time limit or killed from outside leaves its page
 * `inconclusive` and is replaced for the next page; children die with the extractor and with this process.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createPageTextExtractor } from '../../../build/quotes/create-page-text-extractor.ts';
import { makeInflatingPdf, makeMisnestedHtml } from '../../support/make-hostile-pages.ts';
import { makeTestPdf } from '../../support/make-test-pdf.ts';
import { TSX_NODE_ARGS } from '../../support/run-hra.ts';
import { processAlive } from '../../support/process-alive.ts';

const QUOTE = 'Eligible homeowners may receive up to $10,000 for home repairs.';
const healthy = () => ({ body: Buffer.from(`<!doctype html><title>Repair</title><p>${QUOTE}</p>`), contentType: 'text/html', complete: true });

const alive = processAlive;

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const end = performance.now() + ms; performance.now() < end;) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

describe('createPageTextExtractor', () => {
  it('answers a killed child\'s page inconclusive and reads the page queued behind it in a new child', async () => {
    const extractor = createPageTextExtractor({ children: 1 });
    try {
      assert.equal((await extractor.extract(healthy())).kind, 'text');
      const [first] = extractor.pids();
      const slow = extractor.extract({ body: makeMisnestedHtml(4 * 1024 * 1024), contentType: 'text/html', complete: true });
      // Handed to the same child behind the slow page, so it goes back to the queue when that child dies.
      const queued = extractor.extract(healthy());
      process.kill(first!, 'SIGKILL');
      assert.deepEqual(await slow, { kind: 'inconclusive', format: 'other', reason: 'page extraction child exited (sigkill)', limit: 'run-time' });
      const next = await queued;
      assert.equal(next.kind, 'text');
      assert.match(next.kind === 'text' ? next.text : '', /up to \$10,000/);
      assert.notEqual(extractor.pids()[0], first);
    } finally {
      await extractor.close();
    }
  });

  it('kills a child at the time limit, says so, and reads the next page normally', async () => {
    // 3 million text operations take pdf.js about 4.5 s on an idle core of this machine: well past the limit.
    const extractor = createPageTextExtractor({ children: 1, timeoutMs: 2500 });
    try {
      assert.equal((await extractor.extract(healthy())).kind, 'text');
      const [first] = extractor.pids();
      const pdf = await makeTestPdf({ kind: 'slow', operations: 3_000_000 });
      assert.deepEqual(await extractor.extract({ body: pdf, contentType: 'application/pdf', complete: true }), {
        kind: 'inconclusive', format: 'other', reason: 'page extraction timed out after 2500 ms', limit: 'run-time',
      });
      assert.ok(await until(() => !alive(first!), 2000), `child ${first} was killed`);
      // The next page gets a new child, whose start counts towards that page's limit.
      assert.equal((await extractor.extract(healthy())).kind, 'text');
    } finally {
      await extractor.close();
    }
  });

  it('says a child ran out of its heap, and reads the next page normally', async () => {
    const extractor = createPageTextExtractor({ children: 1, maxRssMb: 1024, maxHeapMb: 24 });
    try {
      assert.deepEqual(await extractor.extract({ body: makeMisnestedHtml(2 * 1024 * 1024), contentType: 'text/html', complete: true }), {
        kind: 'inconclusive', format: 'other', reason: 'page extraction ran out of memory (24 MiB heap cap)', limit: 'run-time',
      });
      assert.equal((await extractor.extract(healthy())).kind, 'text');
    } finally {
      await extractor.close();
    }
  });

  it('kills the larger child when the children together pass their total, each page saying why', async () => {
    const extractor = createPageTextExtractor({ children: 2, maxRssMb: 400, maxTotalRssMb: 400 });
    try {
      const bomb = { body: makeInflatingPdf(1024), contentType: 'application/pdf', complete: true };
      const reasons = (await Promise.all([extractor.extract(bomb), extractor.extract(bomb)])).map((text) => (text.kind === 'inconclusive' ? text.reason : text.kind));
      assert.deepEqual(reasons.sort(), ['page extraction exceeded 400 MiB of memory', 'page extraction exceeded 400 MiB of memory with the other pages read at once']);
      assert.equal((await extractor.extract(healthy())).kind, 'text');
    } finally {
      await extractor.close();
    }
  });

  it('starts each child with young-generation halves of a sixth of its heap cap, at most 32 MiB', async () => {
    const semiSpace = async (options: Parameters<typeof createPageTextExtractor>[0]) => {
      const extractor = createPageTextExtractor(options);
      try {
        assert.equal((await extractor.extract(healthy())).kind, 'text');
        const args = readFileSync(`/proc/${extractor.pids()[0]}/cmdline`, 'utf8').split('\0');
        return args.filter((arg) => /^--max-(semi|old)-space-size=/.test(arg));
      } finally {
        await extractor.close();
      }
    };
    assert.deepEqual(await semiSpace({ children: 1 }), ['--max-old-space-size=192', '--max-semi-space-size=32']);
    assert.deepEqual(await semiSpace({ children: 1, maxRssMb: 1024, maxHeapMb: 24 }), ['--max-old-space-size=24', '--max-semi-space-size=4']);
  });

  it('kills its children on close', async () => {
    const extractor = createPageTextExtractor({ children: 2 });
    await Promise.all([extractor.extract(healthy()), extractor.extract(healthy())]);
    const pids = extractor.pids();
    assert.equal(pids.length, 2);
    await extractor.close();
    assert.deepEqual(pids.filter(alive), []);
    assert.equal((await extractor.extract(healthy())).kind, 'inconclusive');
  });

  it('leaves no child behind when its process is killed, and lets a finished run exit without close', async () => {
    const module = new URL('../../../build/quotes/create-page-text-extractor.ts', import.meta.url).href;
    const script = `
      const { createPageTextExtractor } = await import(${JSON.stringify(module)});
      const extractor = createPageTextExtractor({ children: 1 });
      await extractor.extract({ body: Buffer.from('<p>${QUOTE}</p>'), contentType: 'text/html', complete: true });
      process.stdout.write(extractor.pids().join(',') + '\\n');
      if (process.argv[1] === 'hang') setInterval(() => {}, 1000);
    `;
    const start = (mode: string) => spawn(process.execPath, [...TSX_NODE_ARGS, '--input-type=module', '-e', script, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    const firstLine = (child: ReturnType<typeof start>) => new Promise<number>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));

    const finished = start('finish');
    const idlePid = await firstLine(finished);
    const [code] = await new Promise<[number | null]>((resolve) => finished.once('exit', (exitCode) => resolve([exitCode])));
    assert.equal(code, 0);
    assert.ok(await until(() => !alive(idlePid), 5000), `idle child ${idlePid} outlived its finished parent`);

    const hanging = start('hang');
    const childPid = await firstLine(hanging);
    hanging.kill('SIGKILL');
    assert.ok(await until(() => !alive(childPid), 5000), `child ${childPid} outlived its killed parent`);
  });
});
