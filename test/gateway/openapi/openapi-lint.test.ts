/**
 * The OpenAPI document under the rulesets a consumer may gate CI on (issue 24 item 4): Redocly `recommended`
 * (with an unused component an error, see redocly.yaml) and Spectral `spectral:oas`, each with no error and
 * no warning. Linted as served at `/openapi.json` by a gateway whose snapshot names a `publicBaseUrl` and by
 * one whose snapshot names none, and as built with deprecated operations. Both run offline: Redocly from its
 * installed CLI, Spectral in process with its bundled rulesets (the document has only local `$ref`s).
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { buildOpenApiDocument } from '../../../gateway/openapi/build-openapi-document.ts';
import { ROUTE_TABLE } from '../../../gateway/routes/route-table.ts';
import { copyCorpusWith } from '../../support/copy-corpus-with.ts';
import { GENEROUS_LIMITS, MINI_CORPUS, startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const run = promisify(execFile);
const redoclyBin = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

// The recommended rules with no-unused-components raised to an error (see the file).
const config = join(import.meta.dirname, 'redocly.yaml');

/** Redocly's report on `document`, written to a file in `dir`. */
async function redoclyLint(dir: string, document: object): Promise<{ totals: { errors: number; warnings: number }; problems: LintProblem[] }> {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document, null, 2));
  // redocly exits non-zero on errors; the JSON report is on stdout either way.
  const { stdout } = await run(process.execPath, [redoclyBin, 'lint', '--format=json', `--config=${config}`, file], {
    maxBuffer: 16 * 1024 * 1024,
    // A test must not phone home: no usage telemetry, no update check.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  })
    .catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr }));
  return JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: LintProblem[] };
}
const describeProblem = (problem: LintProblem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`;

/** A deprecation for the tests that deprecate operations. */
const DEPRECATION = { deprecatedAt: new Date('2026-11-01T00:00:00Z'), sunset: new Date('2027-03-01T00:00:00Z'), successor: '/api/v2/replacement' };

/** Spectral's severities, as its CLI prints them; a consumer's gate fails on the first two. */
const SPECTRAL_SEVERITY = ['error', 'warn', 'info', 'hint'] as const;

/** Spectral with the `spectral:oas` ruleset as `extends: spectral:oas` loads it (its recommended rules). */
const spectral = new Spectral();
// The bundled ruleset's declared type is its literal object, which TypeScript cannot match to the union
// RulesetDefinition (a ruleset with or without `extends`); Spectral's own CLI loads the same object.
spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });

/** Spectral's errors and warnings on `document`, one line each. */
async function spectralProblems(document: object): Promise<string[]> {
  const results = await spectral.run(JSON.stringify(document, null, 2));
  return results.filter((result) => result.severity <= 1).map((result) => `${SPECTRAL_SEVERITY[result.severity]} ${result.code} ${result.path.join('.')}: ${result.message}`);
}

describe('the served document under Redocly recommended and Spectral spectral:oas', () => {
  const dir = makeTempDir('hra-openapi-served-');
  const base = 'https://homerepair.example.test/v';
  let corpus: string;
  const gateways: { name: string; gateway: TestGateway }[] = [];
  before(async () => {
    corpus = copyCorpusWith({ publicBaseUrl: base });
    gateways.push({ name: `with publicBaseUrl ${base}`, gateway: await startTestGateway({ corpus, limits: GENEROUS_LIMITS }) });
    gateways.push({ name: 'without publicBaseUrl', gateway: await startTestGateway({ corpus: MINI_CORPUS, limits: GENEROUS_LIMITS }) });
  });
  after(async () => {
    for (const { gateway } of gateways) await gateway.close();
    rmSync(corpus, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  const served = async (gateway: TestGateway): Promise<object> => {
    const response = await gateway.get('/openapi.json');
    assert.equal(response.status, 200);
    return await response.json() as object;
  };

  it('has no Redocly problem and no Spectral error or warning, with and without publicBaseUrl', { timeout: 240_000 }, async () => {
    for (const { name, gateway } of gateways) {
      const document = await served(gateway);
      const report = await redoclyLint(dir, document);
      assert.deepEqual(report.problems.map(describeProblem), [], `redocly, ${name}`);
      assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 }, `redocly, ${name}`);
      assert.deepEqual(await spectralProblems(document), [], `spectral, ${name}`);
    }
  });

  it('is the same document either way: it depends on code, not on the snapshot, so it links no absolute URL', async () => {
    const [linked, unlinked] = await Promise.all(gateways.map(({ gateway }) => served(gateway)));
    assert.deepEqual(linked, unlinked);
    assert.equal(JSON.stringify(linked).includes(base), false);
    assert.equal((linked as { externalDocs?: unknown }).externalDocs, undefined);
  });
});

describe('buildOpenApiDocument under Spectral spectral:oas', () => {
  it('stays clean with deprecated operations, and with every operation deprecated', { timeout: 120_000 }, async () => {
    for (const routes of [ROUTE_TABLE, ROUTE_TABLE.map((route) => ({ ...route, deprecation: DEPRECATION }))]) {
      assert.deepEqual(await spectralProblems(buildOpenApiDocument(routes)), []);
    }
  });

  it('reports a relative externalDocs url as an error, as the spectral CLI does', async () => {
    const document = { ...buildOpenApiDocument(), externalDocs: { description: 'The HTML reference.', url: '/docs' } };
    assert.deepEqual(await spectralProblems(document), ['error oas3-schema externalDocs.url: "url" property must match format "uri".']);
  });
});

describe('buildOpenApiDocument under redocly lint', () => {
  const dir = makeTempDir('hra-openapi-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  const lint = (document: object) => redoclyLint(dir, document);

  it('is a valid OpenAPI 3.1 description with no problem at all', { timeout: 120_000 }, async () => {
    const report = await lint(buildOpenApiDocument());
    assert.deepEqual(report.problems.map(describeProblem), []);
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
  });

  it('stays valid with deprecated operations, and with every operation deprecated', { timeout: 240_000 }, async () => {
    const some = ['/api/sample', '/api/cities', '/api/programs/:city/:programId', '/healthz'];
    for (const deprecated of [some, ROUTE_TABLE.map((route) => route.path)]) {
      const routes = ROUTE_TABLE.map((route) => (deprecated.includes(route.path) ? { ...route, deprecation: DEPRECATION } : route));
      const report = await lint(buildOpenApiDocument(routes));
      assert.deepEqual(report.problems.map(describeProblem), [], `${deprecated.length} deprecated`);
    }
  });

  it('counts an unused component as an error, not a warning', { timeout: 120_000 }, async () => {
    const document = buildOpenApiDocument() as { components: { headers: Record<string, unknown> } };
    const report = await lint({ ...document, components: { ...document.components, headers: { ...document.components.headers, Unused: { schema: { type: 'string' } } } } });
    assert.deepEqual(report.problems.map(describeProblem), ['error no-unused-components #/components/headers/Unused: Component: "Unused" is never used.']);
  });
});
