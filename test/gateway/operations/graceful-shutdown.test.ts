/**
 * Graceful shutdown of a real `hra serve` process: SIGTERM under steady keep-alive load, and SIGINT.
 */
import * as assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { get, publishTwoRevisions, spawnServe, type TwoRevisions } from './serve-process.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';

const LOOPS = 8;
const PATHS = ['/api/programs/alpha', '/api/sample', '/api/changes?since=2026-01-01', '/api/programs/beta/b-repair'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let revisions: TwoRevisions;
before(async () => {
  revisions = await publishTwoRevisions();
});
after(() => revisions.remove());

interface Outcome {
  startedAt: number;
  status?: number;
  connection?: string | null;
  error?: string;
}

describe('graceful shutdown', () => {
  it('SIGTERM under load: readiness fails, every request sent before the signal completes with 200, exit 0 within 10 s', async (t) => {
    const server = await spawnServe(['--dataset', revisions.dataset, '--keys', revisions.keysFile, '--limits', revisions.limitsFile]);
    let signalAt = Number.POSITIVE_INFINITY;
    const loops = Array.from({ length: LOOPS }, async (_, index) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const outcomes: Outcome[] = [];
      for (let n = index; ; n++) {
        const path = PATHS[n % PATHS.length] ?? '/api/sample';
        const outcome: Outcome = { startedAt: performance.now() };
        outcomes.push(outcome);
        try {
          const response = await get(`${server.url}${path}`, agent, { 'X-Api-Key': revisions.commercialKey });
          outcome.status = response.status;
          outcome.connection = response.connection;
        } catch (error) {
          outcome.error = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
          // Before the signal every failure is a finding; after it, a refused connection is the expected end.
          if (outcome.startedAt > signalAt) break;
        }
        if (outcome.startedAt > signalAt + 15_000) break;
      }
      agent.destroy();
      return outcomes;
    });
    await sleep(500);

    // A health checker's keep-alive connection, opened before the signal.
    const checker = new Agent({ keepAlive: true, maxSockets: 1 });
    assert.equal((await get(`${server.url}/readyz`, checker)).status, 200);

    signalAt = performance.now();
    server.kill('SIGTERM');
    let readiness = await get(`${server.url}/readyz`, checker);
    for (let attempt = 0; readiness.status === 200 && attempt < 100; attempt++) {
      await sleep(5);
      readiness = await get(`${server.url}/readyz`, checker);
    }
    checker.destroy();
    assert.equal(readiness.status, 503, readiness.body);
    assert.equal((JSON.parse(readiness.body) as ApiErrorBody).code, 'SHUTTING_DOWN');
    assert.equal(readiness.connection, 'close');

    const exit = await server.exited;
    const outcomes = (await Promise.all(loops)).flat();
    const before = outcomes.filter((outcome) => outcome.startedAt < signalAt);
    const after = outcomes.filter((outcome) => outcome.startedAt >= signalAt);
    t.diagnostic(`${before.length} requests before SIGTERM, ${after.length} after it (${after.filter((outcome) => outcome.status === 200).length} answered, ${outcomes.filter((outcome) => outcome.connection === 'close').length} with Connection: close); exit ${exit.code} after ${Math.round(exit.at - signalAt)} ms`);

    assert.equal(exit.code, 0, server.stderr());
    assert.ok(exit.at - signalAt < 10_000, 'exits within the 10 s bound');
    assert.deepEqual(before.filter((outcome) => outcome.status !== 200).map((outcome) => outcome.error ?? outcome.status), [], 'every request sent before the signal completes with 200');
    // Sent after the signal: answered on a connection opened before it (200), or refused a new connection.
    for (const outcome of after) {
      if (outcome.error === undefined) assert.equal(outcome.status, 200);
      else assert.equal(outcome.error, 'ECONNREFUSED', 'after the signal, new connections are refused');
    }
    assert.ok(outcomes.some((outcome) => outcome.connection === 'close'), 'responses during the drain close their connection');
    assert.ok(after.some((outcome) => outcome.error === 'ECONNREFUSED'), 'the listener closed');
    const messages = server.logLines().map((line) => line.msg);
    assert.ok(messages.includes('shutdown: drained, exiting'), server.stderr());
  });

  it('SIGINT drains the same way: exit 0, and the port is closed', async () => {
    const server = await spawnServe(['--dataset', revisions.dataset, '--keys', revisions.keysFile]);
    const agent = new Agent({ keepAlive: true });
    assert.equal((await get(`${server.url}/healthz`, agent)).status, 200);
    agent.destroy();
    server.kill('SIGINT');
    const exit = await server.exited;
    assert.equal(exit.code, 0, server.stderr());
    await assert.rejects(get(`${server.url}/healthz`, new Agent()), (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED');
  });
});
