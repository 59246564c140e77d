/**
 * pdf.js's legacy bundles replace Array.prototype.push and JSON.parse with slower JavaScript polyfills
 * process-wide; load-pdfjs.ts puts the natives back, both where the reader loads pdf.js itself and in the
 * preload a page-text child starts with under tsx. Each case runs in a fresh process, as nothing else may have
 * loaded pdf.js first.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { pdfjsPreloadModule } from '../../../build/quotes/load-pdfjs.ts';
import { ROOT, TSX_NODE_ARGS } from '../../support/run-hra.ts';

const dataModule = (source: string) => `data:text/javascript,${encodeURIComponent(source)}`;
// Kept where the check can see them, before anything loads pdf.js.
const CAPTURE = dataModule('globalThis.nativesBeforePdfjs = { push: Array.prototype.push, parse: JSON.parse };');
const CHECK = `
  const kept = globalThis.nativesBeforePdfjs;
  if (typeof Promise.withResolvers !== 'function') throw new Error('the polyfill pdf.js needs on Node 20 is gone');
  console.log(JSON.stringify({ push: Array.prototype.push === kept.push, parse: JSON.parse === kept.parse }));
`;

function run(args: string[]): { push: boolean; parse: boolean } {
  const child = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!);
}

describe('loading pdf.js', () => {
  it('as it is bundled, replaces both natives (what this module undoes)', () => {
    const source = `await import(${JSON.stringify(import.meta.resolve('pdfjs-dist/legacy/build/pdf.mjs'))});${CHECK}`;
    assert.deepEqual(run(['--import', CAPTURE, '--input-type=module', '-e', source]), { push: false, parse: false });
  });

  it('through the reader (read-pdf-pages.ts) keeps both natives, and a PDF is still read', () => {
    const source = `
      const { readPdfPages } = await import(${JSON.stringify(import.meta.resolve('../../../build/quotes/read-pdf-pages.ts'))});
      const { makeTestPdf } = await import(${JSON.stringify(import.meta.resolve('../../support/make-test-pdf.ts'))});
      const answer = await readPdfPages(await makeTestPdf({ kind: 'text', pages: [['Grants of up to $7,500 per home']] }));
      if (!answer.ok || !answer.pages[0].includes('$7,500')) throw new Error(JSON.stringify(answer));
      ${CHECK}`;
    assert.deepEqual(run(['--import', CAPTURE, ...TSX_NODE_ARGS, '--input-type=module', '-e', source]), { push: true, parse: true });
  });

  it('through the preload a page-text child starts with keeps both natives', () => {
    const preload = dataModule(pdfjsPreloadModule(import.meta.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'), import.meta.resolve('pdfjs-dist/legacy/build/pdf.mjs')));
    const source = `if (globalThis.pdfjsWorker === undefined) throw new Error('the worker was not preloaded');${CHECK}`;
    assert.deepEqual(run(['--import', CAPTURE, '--import', preload, '--input-type=module', '-e', source]), { push: true, parse: true });
  });
});
