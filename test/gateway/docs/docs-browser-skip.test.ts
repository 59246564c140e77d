/**
 * The /docs browser test's skip is visible: without Chromium it counts as skipped in node:test's summary
 * (a skipped suite would count 0), and with HRA_REQUIRE_BROWSER=1, which .ci/run sets, it fails instead.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hraEnv, ROOT, TSX_NODE_ARGS } from '../../support/run-hra.ts';

const BROWSER_TEST = join(ROOT, 'test/gateway/docs/docs-browser.test.ts');

/** Runs the browser test file as CI runs tests, with Chromium looked for where there is none. */
function runWithoutChromium(extra: Record<string, string> = {}): { status: number | null; summary: Record<string, number> } {
  // Without NODE_TEST_CONTEXT the child reports on its own stdout, not to this test runner.
  const { NODE_TEST_CONTEXT: _, ...env } = hraEnv(extra);
  const run = spawnSync(process.execPath, [...TSX_NODE_ARGS, '--test', '--test-reporter=tap', BROWSER_TEST], {
    cwd: ROOT,
    env: { ...env, CHROMIUM_PATH: join(ROOT, 'no-such-chromium') },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const summary: Record<string, number> = {};
  for (const [, name, count] of run.stdout.matchAll(/^# (tests|pass|fail|skipped) (\d+)$/gm)) summary[name ?? ''] = Number(count);
  return { status: run.status, summary };
}

describe('docs-browser.test.ts without Chromium', () => {
  it('counts as skipped in the summary', () => {
    const { status, summary } = runWithoutChromium();
    assert.equal(status, 0);
    assert.deepEqual(summary, { tests: 1, pass: 0, fail: 0, skipped: 1 });
  });

  it('fails when HRA_REQUIRE_BROWSER=1', () => {
    const { status, summary } = runWithoutChromium({ HRA_REQUIRE_BROWSER: '1' });
    assert.equal(status, 1);
    assert.deepEqual(summary, { tests: 1, pass: 0, fail: 1, skipped: 0 });
  });

  it('is required by .ci/run, before it runs the tests', () => {
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    const required = ci.indexOf('export HRA_REQUIRE_BROWSER=1');
    assert.ok(required !== -1 && required < ci.indexOf('npm test'), '.ci/run exports HRA_REQUIRE_BROWSER=1 before npm test');
  });
});
