import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { EXTRACTOR_VERSION } from '../../../build/quotes/extractor-version.ts';

describe('EXTRACTOR_VERSION', () => {
  it('names the installed pdf.js, whose text layer is part of every PDF verdict', () => {
    const installed = JSON.parse(readFileSync(new URL('../../../node_modules/pdfjs-dist/package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(EXTRACTOR_VERSION.split('+pdfjs-dist-')[1], installed.version);
    assert.match(EXTRACTOR_VERSION, /^\d+\+pdfjs-dist-/);
  });
});
