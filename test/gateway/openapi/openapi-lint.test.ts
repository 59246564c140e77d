import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { buildOpenApiDocument } from '../../../gateway/openapi/build-openapi-document.ts';
import { ROUTE_TABLE } from '../../../gateway/routes/route-table.ts';

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

describe('buildOpenApiDocument under redocly lint', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hra-openapi-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function lint(document: object): Promise<{ totals: { errors: number; warnings: number }; problems: LintProblem[] }> {
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

  it('is a valid OpenAPI 3.1 description with no problem at all', { timeout: 120_000 }, async () => {
    const report = await lint(buildOpenApiDocument());
    assert.deepEqual(report.problems.map(describeProblem), []);
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
  });

  it('stays valid with deprecated operations, and with every operation deprecated', { timeout: 240_000 }, async () => {
    const deprecation = { deprecatedAt: new Date('2026-11-01T00:00:00Z'), sunset: new Date('2027-03-01T00:00:00Z'), successor: '/api/v2/replacement' };
    const some = ['/api/sample', '/api/cities', '/api/programs/:city/:programId', '/healthz'];
    for (const deprecated of [some, ROUTE_TABLE.map((route) => route.path)]) {
      const routes = ROUTE_TABLE.map((route) => (deprecated.includes(route.path) ? { ...route, deprecation } : route));
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
