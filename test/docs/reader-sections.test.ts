/**
 * The sections a new user tripped on (issue 42) say what their reader does and point to docs/decisions.md for
 * how it works inside: no source path in them, and the decisions they point to are there.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');

function section(file: string, heading: string): string {
  const text = readFileSync(join(ROOT, 'docs', file), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `${file} has "## ${heading}"`);
  const rest = text.slice(start + 1);
  const end = rest.indexOf('\n## ', 1);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The anchors of decisions.md's headings, as GitHub makes them. */
const decisionAnchors = new Set([...readFileSync(join(ROOT, 'docs', 'decisions.md'), 'utf8').matchAll(/^#+ (.+)$/gm)]
  .map((match) => match[1]!.toLowerCase().replace(/[^\w\s-]/g, '').replace(/\s/g, '-')));

describe('reader-facing sections', () => {
  for (const [file, heading, decision] of [
    ['consumers.md', 'Compression', 'compression'],
    ['maintainers.md', 'Running `hra`', 'the-launcher'],
    ['operators.md', 'Operations', 'the-start-up-hash'],
  ] as const) {
    it(`${file} "${heading}" points to decisions.md#${decision}, which holds the internals`, () => {
      const text = section(file, heading);
      assert.ok(text.includes(`(decisions.md#${decision})`), `${file} "${heading}" links decisions.md#${decision}`);
      assert.ok(decisionAnchors.has(decision), `decisions.md has a heading #${decision}`);
    });
  }

  for (const [file, heading] of [['consumers.md', 'Compression'], ['maintainers.md', 'Running `hra`']] as const) {
    it(`${file} "${heading}" names no source file`, () => {
      assert.doesNotMatch(section(file, heading), /\b(gateway|build|scripts)\/[\w/-]+\.(ts|js)\b|compile-manifest\.json/);
    });
  }
});
