import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { buildOpenApiDocument } from '../../../gateway/openapi/build-openapi-document.ts';

const run = promisify(execFile);
const redoclyBin = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

// Warnings the design accepts: component schemas are embedded by identity (STYLE 8), so the parts of a
// larger schema are not `$ref`-used; the deprecation headers exist for operations not deprecated yet.
const ACCEPTED_WARNINGS = new Set([
  '#/components/schemas/ExportRow', '#/components/schemas/Freshness', '#/components/schemas/Contractor',
  '#/components/schemas/City', '#/components/schemas/CityWithCount', '#/components/schemas/ChangeEvent',
  '#/components/schemas/LinkHealthCounts',
  '#/components/headers/Deprecation', '#/components/headers/Sunset', '#/components/headers/Link',
]);

describe('buildOpenApiDocument under redocly lint', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hra-openapi-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is a valid OpenAPI 3.1 description with no errors and only the accepted warnings', { timeout: 120_000 }, async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
    // redocly exits non-zero on errors; the JSON report is on stdout either way.
    const { stdout } = await run(process.execPath, [redoclyBin, 'lint', '--format=json', file], {
      maxBuffer: 16 * 1024 * 1024,
      // A test must not phone home: no usage telemetry, no update check.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    })
      .catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr }));
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: LintProblem[] };
    const describe = (problem: LintProblem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`;
    assert.deepEqual(report.problems.filter((problem) => problem.severity === 'error').map(describe), []);
    const unexpected = report.problems.filter((problem) => !(problem.ruleId === 'no-unused-components' && ACCEPTED_WARNINGS.has(problem.location[0]?.pointer ?? '')));
    assert.deepEqual(unexpected.map(describe), []);
    assert.equal(report.totals.errors, 0);
  });
});
