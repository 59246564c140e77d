/** docs/consumers.md lists every report the gateway serves under `/api/dataset/reports/<name>` (issue 42 item 2). */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPORT_NAMES } from '../../build/contract/report-artifact-schema.ts';
import { ROOT } from '../support/run-hra.ts';

describe('docs/consumers.md report names', () => {
  it('names each served report', () => {
    const consumers = readFileSync(join(ROOT, 'docs/consumers.md'), 'utf8');
    for (const name of REPORT_NAMES) assert.ok(consumers.includes(`\`${name}\``), `docs/consumers.md names the report ${name}`);
  });
});
