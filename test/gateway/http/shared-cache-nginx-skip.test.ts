/**
 * The nginx shared-cache test's skip is visible: without nginx it counts as skipped in node:test's summary
 * (a skipped suite would count 0), and with HRA_REQUIRE_NGINX=1, which .ci/run sets, it fails instead.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hraEnv, ROOT, TSX_NODE_ARGS } from '../../support/run-hra.ts';

const NGINX_TEST = join(ROOT, 'test/gateway/http/shared-cache-nginx.test.ts');

/** Runs the nginx test file as CI runs tests, with nginx looked for where there is none. */
function runWithoutNginx(extra: Record<string, string> = {}): { status: number | null; summary: Record<string, number> } {
  // Without NODE_TEST_CONTEXT the child reports on its own stdout, not to this test runner.
  const { NODE_TEST_CONTEXT: _, ...env } = hraEnv(extra);
  const run = spawnSync(process.execPath, [...TSX_NODE_ARGS, '--test', '--test-reporter=tap', NGINX_TEST], {
    cwd: ROOT,
    env: { ...env, NGINX_PATH: join(ROOT, 'no-such-nginx') },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const summary: Record<string, number> = {};
  for (const [, name, count] of run.stdout.matchAll(/^# (tests|pass|fail|skipped) (\d+)$/gm)) summary[name ?? ''] = Number(count);
  return { status: run.status, summary };
}

describe('shared-cache-nginx.test.ts without nginx', () => {
  it('counts as skipped in the summary', () => {
    const { status, summary } = runWithoutNginx();
    assert.equal(status, 0);
    assert.deepEqual(summary, { tests: 2, pass: 0, fail: 0, skipped: 2 });
  });

  it('fails when HRA_REQUIRE_NGINX=1', () => {
    const { status, summary } = runWithoutNginx({ HRA_REQUIRE_NGINX: '1' });
    assert.equal(status, 1);
    assert.deepEqual(summary, { tests: 2, pass: 0, fail: 2, skipped: 0 });
  });

  it('is required by .ci/run, before it runs the tests', () => {
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    const required = ci.indexOf('export HRA_REQUIRE_NGINX=1');
    assert.ok(required !== -1 && required < ci.indexOf('npm test'), '.ci/run exports HRA_REQUIRE_NGINX=1 before npm test');
  });
});
