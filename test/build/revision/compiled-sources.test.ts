/** compiledTreeState: dist/js stands for the sources only while they are byte for byte those it was compiled from. */
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { COMPILE_MANIFEST, compiledTreeState, hashCompiledSources, PACKAGE_ROOT, RUNNING_COMPILED } from '../../../build/revision/compiled-sources.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

describe('compiledTreeState', () => {
  const scratch = makeTempDir('hra-compiled-sources-');
  after(() => rmSync(scratch, { recursive: true, force: true }));
  let root: string;
  let round = 0;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const compile = () => write(COMPILE_MANIFEST, JSON.stringify({ sources: hashCompiledSources(root), enrichment: 'e'.repeat(64) }));

  beforeEach(() => {
    root = join(scratch, `tree-${round++}`);
    write('build/derive/rule.ts', 'export const rule = 1;\n');
    write('build/snapshot/nested/deep.ts', 'export const deep = 2;\n');
    write('gateway/app.ts', 'export const app = 3;\n');
    write('scripts/hra.ts', 'export {};\n');
  });

  it('is current right after the compile, and names the sources it hashed', () => {
    compile();
    const state = compiledTreeState(root);
    assert.equal(state.current, true);
    assert.deepEqual(Object.keys(hashCompiledSources(root)), ['build/derive/rule.ts', 'build/snapshot/nested/deep.ts', 'gateway/app.ts', 'scripts/hra.ts']);
  });

  it('is stale without a manifest (never compiled, or a compile that failed or is under way)', () => {
    assert.deepEqual(compiledTreeState(root), { current: false, reason: 'dist/js/compile-manifest.json is missing: dist/js was not compiled by npm run compile' });
  });

  it('is stale with a damaged manifest, rather than failing', () => {
    write(COMPILE_MANIFEST, '{"sources": ');
    const state = compiledTreeState(root);
    assert.equal(state.current, false);
    assert.match(state.current ? '' : state.reason, /^dist\/js\/compile-manifest\.json is unreadable \(.*JSON/);
  });

  const edits: Array<[string, () => void, string]> = [
    ['a source edited after compiling, even with an older modification time', () => {
      write('build/derive/rule.ts', 'export const rule = 2;\n');
      utimesSync(join(root, 'build/derive/rule.ts'), new Date('2000-01-01'), new Date('2000-01-01'));
    }, 'build/derive/rule.ts changed since dist/js was compiled'],
    ['a source added', () => write('build/derive/new-rule.ts', 'export {};\n'), 'build/derive/new-rule.ts was added since dist/js was compiled'],
    ['a source removed', () => unlinkSync(join(root, 'gateway/app.ts')), 'gateway/app.ts was removed since dist/js was compiled'],
    ['two sources edited', () => {
      write('gateway/app.ts', '// edited\n');
      write('scripts/hra.ts', '// edited\n');
    }, 'gateway/app.ts changed (and 1 more) since dist/js was compiled'],
  ];
  for (const [what, edit, reason] of edits) {
    it(`is stale after ${what}, naming it`, () => {
      compile();
      edit();
      assert.deepEqual(compiledTreeState(root), { current: false, reason });
    });
  }

  it('stays current when only modification times move (a checkout, a copy) or a file that is not a source changes', () => {
    compile();
    utimesSync(join(root, 'gateway/app.ts'), new Date(), new Date(Date.now() + 60_000));
    write('build/derive/notes.md', '# notes\n');
    assert.equal(compiledTreeState(root).current, true);
  });

  it('runs from the sources here, with the package root two folders above build/revision', () => {
    assert.equal(RUNNING_COMPILED, false);
    assert.equal(PACKAGE_ROOT, join(import.meta.dirname, '../../../'));
  });
});
