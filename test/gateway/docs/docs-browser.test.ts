/**
 * `/docs` in a real browser: headless Chromium (Debian's `chromium`, driven by playwright-core) loads the
 * page from a real gateway with nothing but loopback, and Redoc must list every operation of the served
 * OpenAPI document while the page requests nothing but the page itself and breaks none of its own policy.
 * Skips, saying so and counted as skipped, on a machine without Chromium; .ci/run installs it and sets
 * HRA_REQUIRE_BROWSER=1, which turns that skip into a failure.
 */
import * as assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { ROUTE_TABLE } from '../../../gateway/routes/route-table.ts';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

/** Debian's Chromium, unless CHROMIUM_PATH names another build. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MISSING = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
/** Where the browser must be there (CI), its absence fails the test instead of skipping it. */
const REQUIRED = process.env.HRA_REQUIRE_BROWSER === '1';
// The skip sits on the test, not the suite: node:test counts a skipped suite as 0 skipped in its summary.
const SKIP = MISSING !== undefined && !REQUIRED ? MISSING : false;
if (SKIP) console.log(`# docs-browser: skipped: ${SKIP}`);

interface Operation { operationId: string }

describe('GET /docs in headless Chromium', () => {
  let gateway: TestGateway;
  let browser: Browser;
  const dir = makeTempDir('hra-docs-browser-');

  before(async () => {
    if (MISSING !== undefined) return;
    gateway = await startTestGateway();
    // --no-sandbox: CI runs as root, where Chromium refuses its sandbox; a container's /dev/shm can be tiny.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  });
  after(async () => {
    await browser?.close();
    await gateway?.close();
    // Kept for a person to look at (a few hundred KiB in the system's temp folder).
    if (MISSING === undefined) console.log(`# docs-browser: screenshot at ${join(dir, 'docs.png')}`);
  });

  it('lists every operation of /openapi.json, requests nothing beyond the gateway, and breaks no policy', { skip: SKIP, timeout: 120_000 }, async () => {
    if (MISSING !== undefined) assert.fail(`${MISSING}; HRA_REQUIRE_BROWSER=1 requires it`);
    const document = await (await gateway.get('/openapi.json')).json() as { paths: Record<string, Record<string, Operation>> };
    const operationIds = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId)).sort();
    assert.equal(operationIds.length, ROUTE_TABLE.length, 'one operation per route');

    // A fresh context: nothing cached, no service worker, offline except for what the page asks of the gateway.
    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(`console ${message.type()}: ${message.text()}`);
    });

    const response = await page.goto(`${gateway.url}/docs`, { waitUntil: 'load' });
    assert.equal(response?.status(), 200);
    await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 60_000 });
    const rendered = (await page.$$eval('[data-section-id^="operation/"]', (sections) => sections.map((section) => section.getAttribute('data-section-id') ?? '')))
      .map((id) => id.replace(/^operation\//, '')).sort();
    assert.deepEqual(rendered, operationIds);
    // The menu lists them too (one entry per operation, under its tag).
    const menu = await page.$$eval('li[data-item-id*="operation/"]', (items) => items.length);
    assert.equal(menu, operationIds.length);

    const screenshot = join(dir, 'docs.png');
    await page.screenshot({ path: screenshot });
    assert.ok(statSync(screenshot).size > 10_000, 'a screenshot of the rendered page');
    await context.close();

    // The page and the blob: its search worker is started from; nothing else, and nothing off the gateway.
    const outside = requested.filter((url) => !(url === `${gateway.url}/docs` || url.startsWith(`blob:${gateway.url}/`)));
    assert.deepEqual(outside, []);
    assert.deepEqual(problems, []);
  });
});
