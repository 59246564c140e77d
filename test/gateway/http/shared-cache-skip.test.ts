/**
 * The shared-cache tests' skips are visible: without nginx or Squid each counts as skipped in node:test's
 * summary (a skipped suite would count 0), and with HRA_REQUIRE_NGINX=1 or HRA_REQUIRE_SQUID=1, which
 * .ci/run sets, it fails instead.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hraEnv, ROOT, TSX_NODE_ARGS } from '../../support/run-hra.ts';

const CASES = [
  { file: 'shared-cache-nginx.test.ts', pathVariable: 'NGINX_PATH', required: 'HRA_REQUIRE_NGINX' },
  { file: 'shared-cache-squid.test.ts', pathVariable: 'SQUID_PATH', required: 'HRA_REQUIRE_SQUID' },
] as const;

/** Runs a test file as CI runs tests, with its proxy looked for where there is none. */
function runWithout(file: string, pathVariable: string, extra: Record<string, string> = {}): { status: number | null; summary: Record<string, number> } {
  // Without NODE_TEST_CONTEXT the child reports on its own stdout, not to this test runner.
  const { NODE_TEST_CONTEXT: _, ...env } = hraEnv(extra);
  const run = spawnSync(process.execPath, [...TSX_NODE_ARGS, '--test', '--test-reporter=tap', join(ROOT, 'test/gateway/http', file)], {
    cwd: ROOT,
    env: { ...env, [pathVariable]: join(ROOT, 'no-such-proxy') },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const summary: Record<string, number> = {};
  for (const [, name, count] of run.stdout.matchAll(/^# (tests|pass|fail|skipped) (\d+)$/gm)) summary[name ?? ''] = Number(count);
  return { status: run.status, summary };
}

for (const { file, pathVariable, required } of CASES) {
  describe(`${file} without its proxy`, () => {
    it('counts as skipped in the summary', () => {
      const { status, summary } = runWithout(file, pathVariable);
      assert.equal(status, 0);
      assert.deepEqual(summary, { tests: 1, pass: 0, fail: 0, skipped: 1 });
    });

    it(`fails when ${required}=1`, () => {
      const { status, summary } = runWithout(file, pathVariable, { [required]: '1' });
      assert.equal(status, 1);
      assert.deepEqual(summary, { tests: 1, pass: 0, fail: 1, skipped: 0 });
    });

    it('is required by .ci/run, before it runs the tests', () => {
      const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
      const at = ci.indexOf(`export ${required}=1`);
      assert.ok(at !== -1 && at < ci.indexOf('npm test'), `.ci/run exports ${required}=1 before npm test`);
    });
  });
}
