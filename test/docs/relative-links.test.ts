/** Every relative Markdown link in the docs (README.md, BENCHMARKS.md, corpus/README.md, docs/*.md) points at a file that exists and, for `#anchor`, at a heading it has. */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, it } from 'node:test';
import { headingAnchor, linesWithFences, readDocFiles, sectionsOf } from '../support/markdown-docs.ts';
import { ROOT } from '../support/run-hra.ts';

const docs = [...readDocFiles(), { file: 'BENCHMARKS.md', text: readFileSync(join(ROOT, 'BENCHMARKS.md'), 'utf8') }];

/** The anchors a Markdown file's headings get. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return new Set(sectionsOf({ file, text }).map((section) => headingAnchor(section.heading)));
}

/** The `[text](target)` links of a file's prose, outside code blocks and code spans. */
function linksOf(text: string): string[] {
  const prose = linesWithFences(text).filter(({ fenced }) => !fenced).map(({ line }) => line.replace(/`[^`]*`/g, '')).join('\n');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

describe('relative links in the docs', () => {
  it('finds links to check', () => {
    assert.ok(docs.reduce((count, doc) => count + linksOf(doc.text).length, 0) > 20);
  });

  for (const doc of docs) {
    it(`${doc.file}: every relative link resolves`, () => {
      for (const link of linksOf(doc.text)) {
        if (/^[a-z]+:/i.test(link)) continue; // http:, https:, mailto: are not relative
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path === '' ? doc.file : normalize(join(dirname(doc.file), path));
        assert.ok(!target.startsWith('..'), `${doc.file}: ${link} leaves the project`);
        assert.ok(existsSync(join(ROOT, target)), `${doc.file}: ${link}: no file ${target}`);
        if (anchor === undefined) continue;
        assert.ok(statSync(join(ROOT, target)).isFile() && target.endsWith('.md'), `${doc.file}: ${link}: an anchor into a Markdown file`);
        assert.ok(anchorsOf(target).has(anchor), `${doc.file}: ${link}: ${target} has no heading #${anchor}`);
      }
    });
  }
});
