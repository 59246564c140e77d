/**
 * A running gateway follows its key-store file over real HTTP (spec 3 "Key lifecycle", 1.8, 5.7): a backup
 * renamed over it with a key revoked is obeyed, a deleted, truncated or overwritten file answers 503
 * AUTH_STORAGE_UNAVAILABLE with Retry-After, and a good file put back serves again, all without a restart
 * or a signal, within a bound (the gateway compares the path with the open file every 250 ms).
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { openKeyStore } from '../../../gateway/keys/sqlite-key-store.ts';
import { GENEROUS_LIMITS, startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { captureLogger, type CapturedLog } from '../observability/capture-logger.ts';
import { errorCode } from './limits-http-support.ts';

// Generous for a loaded CI machine: the check interval is 250 ms, and the issue asks for about 1 s.
const NOTICED_WITHIN_MS = 1500;

describe('a gateway whose key-store file is replaced, deleted or damaged', () => {
  let gateway: TestGateway;
  let keysFile: string;
  let captured: CapturedLog;
  before(async () => {
    captured = captureLogger();
    gateway = await startTestGateway({ limits: GENEROUS_LIMITS, log: captured.log });
    keysFile = join(gateway.dir, 'keys.sqlite');
  });
  after(async () => {
    await gateway?.close();
  });

  /** Asks until the answer's status is `status`, every earlier answer being `before`; returns the last response and the time taken. */
  async function askUntil(t: TestContext, what: string, status: number, before: number, key: string): Promise<Response> {
    const started = performance.now();
    for (;;) {
      const response = await gateway.get('/api/programs/alpha', { key });
      const took = performance.now() - started;
      if (response.status === status) {
        t.diagnostic(`${what}: ${status} after ${took.toFixed(0)} ms`);
        assert.ok(took < NOTICED_WITHIN_MS, `${what} took ${took.toFixed(0)} ms`);
        return response;
      }
      const body = await response.text();
      assert.equal(response.status, before, `${what}: ${body}`);
      assert.ok(took < NOTICED_WITHIN_MS, `${what}: still ${before} after ${took.toFixed(0)} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function assertAuthUnavailable(response: Response): Promise<void> {
    assert.ok(Number(response.headers.get('Retry-After')) >= 1);
    assert.equal(response.headers.get('X-Dataset-Revision'), null);
    assert.equal(await errorCode(response), 'AUTH_STORAGE_UNAVAILABLE');
    // Keyless routes need no key store and keep serving.
    assert.equal((await gateway.get('/api/sample')).status, 200);
  }

  it('obeys a revocation made in a copy renamed over the file, without restart or SIGHUP', async (t) => {
    const { commercial } = gateway.keys;
    assert.equal((await gateway.get('/api/programs/alpha', { key: commercial })).status, 200);
    const copy = join(gateway.dir, 'restore.sqlite');
    copyFileSync(keysFile, copy);
    const store = openKeyStore(copy, { now: () => new Date() });
    await store.revokeKey(gateway.keyIds.commercial);
    await store.close();
    renameSync(copy, keysFile);
    const refused = await askUntil(t, 'revoked copy renamed over the store', 403, 200, commercial);
    assert.equal(await errorCode(refused), 'API_KEY_REVOKED');
    assert.ok(captured.lines().some((line) => line.msg.startsWith('key store replaced')), 'the replacement is logged');
  });

  it('answers 503 AUTH_STORAGE_UNAVAILABLE while the file is deleted, truncated or overwritten, and 200 once a good file is back', async (t) => {
    const { nonprofit } = gateway.keys;
    const good = join(gateway.dir, 'good.sqlite');
    const putBack = () => {
      copyFileSync(keysFile, good);
      return () => renameSync(good, keysFile);
    };
    assert.equal((await gateway.get('/api/programs/alpha', { key: nonprofit })).status, 200);

    let restore = putBack();
    rmSync(keysFile);
    await assertAuthUnavailable(await askUntil(t, 'deleted', 503, 200, nonprofit));
    restore();
    await askUntil(t, 'put back after deletion', 200, 503, nonprofit);

    restore = putBack();
    truncateSync(keysFile, 0);
    await assertAuthUnavailable(await askUntil(t, 'truncated', 503, 200, nonprofit));
    restore();
    await askUntil(t, 'put back after truncation', 200, 503, nonprofit);

    restore = putBack();
    writeFileSync(keysFile, 'not a key store\n'.repeat(1024));
    await assertAuthUnavailable(await askUntil(t, 'overwritten', 503, 200, nonprofit));
    restore();
    await askUntil(t, 'put back after overwriting', 200, 503, nonprofit);

    // A deleted file is noticed only by the path check (SQLite still reads the unlinked inode), and logged;
    // a truncated or overwritten one may fail SQLite's own reads first, before the check comes round.
    const lines = captured.lines();
    assert.ok(lines.some((line) => line.msg.startsWith('key store unavailable') && String(line.reason).includes('no file at that path')), 'the deletion is logged');
  });
});
