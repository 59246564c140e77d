/** computeEnrichmentDigest binds exactly what docs/auditors.md "The revision" says: the `.ts` files directly in derive/ and contract/. */
import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { computeEnrichmentDigest, ENRICHMENT_FOLDERS } from '../../../build/revision/enrichment-digest.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

describe('computeEnrichmentDigest', () => {
  let scratch: string;
  let buildRoot: string;
  let pristine: string;
  before(() => {
    scratch = makeTempDir('hra-enrichment-');
    buildRoot = join(scratch, 'build');
    for (const folder of ['derive', 'contract', 'corpus']) cpSync(join('build', folder), join(buildRoot, folder), { recursive: true });
    pristine = computeEnrichmentDigest(buildRoot).digest;
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('maps build/<folder>/<file>.ts of derive and contract, nothing else', () => {
    const { digest, files } = computeEnrichmentDigest(buildRoot);
    assert.equal(digest, computeEnrichmentDigest().digest);
    assert.deepEqual(ENRICHMENT_FOLDERS, ['derive', 'contract']);
    for (const key of Object.keys(files)) assert.match(key, /^build\/(derive|contract)\/[^/]+\.ts$/);
    assert.ok(Object.keys(files).every((key) => !key.endsWith('.d.ts')));
  });

  const unbound: Array<[string, (root: string) => void]> = [
    ['a .d.ts declaration file', (root) => writeFileSync(join(root, 'derive', 'extra-types.d.ts'), 'export declare const x: number;\n')],
    ['a .ts file in a subfolder', (root) => {
      mkdirSync(join(root, 'contract', 'nested'), { recursive: true });
      writeFileSync(join(root, 'contract', 'nested', 'rule.ts'), 'export const x = 1;\n');
    }],
    ['a file that is not .ts', (root) => writeFileSync(join(root, 'derive', 'notes.md'), '# notes\n')],
    ['a change outside derive/ and contract/', (root) => writeFileSync(join(root, 'corpus', 'load-corpus.ts'), '// changed\n')],
    ['CRLF line endings', (root) => {
      const file = join(root, 'derive', 'income-tier.ts');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));
    }],
  ];
  for (const [what, change] of unbound) {
    it(`does not change with ${what}`, () => {
      const copy = join(scratch, `copy-${what.replace(/\W+/g, '-')}`);
      cpSync(buildRoot, copy, { recursive: true });
      change(copy);
      assert.equal(computeEnrichmentDigest(copy).digest, pristine);
    });
  }

  it('changes with a new .ts file directly in derive/', () => {
    const copy = join(scratch, 'copy-new-rule');
    cpSync(buildRoot, copy, { recursive: true });
    writeFileSync(join(copy, 'derive', 'new-rule.ts'), 'export const x = 1;\n');
    assert.notEqual(computeEnrichmentDigest(copy).digest, pristine);
  });
});
