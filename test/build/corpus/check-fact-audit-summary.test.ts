import * as assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkFactAuditSummary } from '../../../build/corpus/check-fact-audit-summary.ts';
import { CorpusInvalidError, formatProblem } from '../../../build/corpus/corpus-problem.ts';
import type { ReportArtifact } from '../../../build/corpus/corpus-types.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const report = (summary: Record<string, unknown>) => ({ artifact: 'fact-audit', version: 3, completedAt: '2026-11-05T12:00:00Z', manifest: {}, summary, records: [] }) as unknown as ReportArtifact;

describe('checkFactAuditSummary', () => {
  it('passes a bound and rate its counts give, and a summary that states neither', () => {
    assert.deepEqual(checkFactAuditSummary(report({ recordsAudited: 40, factErrors: 1, errorRate: 0.025, errorRateUpperBound: 0.131586 })), []);
    assert.deepEqual(checkFactAuditSummary(report({ recordsAudited: 40, factErrors: 1 })), []);
    assert.deepEqual(checkFactAuditSummary(report({ recordsAudited: 0, factErrors: 0, errorRate: null, errorRateUpperBound: null })), []);
  });

  it('names a bound or rate its counts do not give, and more errors than records', () => {
    assert.deepEqual(checkFactAuditSummary(report({ recordsAudited: 40, factErrors: 1, errorRate: 0.025, errorRateUpperBound: 0.025 })).map((p) => p.path), ['$.summary.errorRateUpperBound']);
    assert.deepEqual(checkFactAuditSummary(report({ recordsAudited: 40, factErrors: 1, errorRate: 0.01 })).map((p) => p.path), ['$.summary.errorRate']);
    assert.deepEqual(checkFactAuditSummary(report({ recordsAudited: 4, factErrors: 5 })).map((p) => p.path), ['$.summary.factErrors']);
  });

  it('makes the corpus invalid at the line of a hand-edited bound', () => {
    const root = join(makeTempDir('hra-audit-bound-'), 'corpus');
    try {
      cpSync('test/fixtures/mini-corpus', root, { recursive: true });
      const file = join(root, 'reports/fact-audit-latest.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"errorRateUpperBound": 0.308498', '"errorRateUpperBound": 0.01'));
      assert.throws(() => loadCorpus(root), (error: unknown) => {
        assert.ok(error instanceof CorpusInvalidError);
        assert.match(formatProblem(error.problems[0]!), /^corpus\/reports\/fact-audit-latest\.json:14 \$\.summary\.errorRateUpperBound: must be 0\.308498/);
        return true;
      });
    } finally {
      rmSync(join(root, '..'), { recursive: true, force: true });
    }
  });
});
