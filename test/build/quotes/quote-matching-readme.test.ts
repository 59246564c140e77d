/** corpus/README.md's "Quote matching" states the normalization character by character; this holds the code to it. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { normalizeForMatch } from '../../../build/quotes/normalize-for-match.ts';
import { OCR_LAYER_SHARE } from '../../../build/quotes/find-hidden-pdf-text.ts';
import { OCR_CONFUSIONS, OCR_LETTERS_PER_SUBSTITUTION, OCR_MAX_SUBSTITUTIONS } from '../../../build/quotes/quote-occurs-in-ocr-layer.ts';
import { UNMAPPED_GLYPH_MAX_LETTERS } from '../../../build/quotes/quote-fails-at-unmapped-glyphs.ts';
import { SPACE_AS_MARK_RUNS, UNREADABLE_PAGE_SHARE } from '../../../build/quotes/unreadable-text-layer.ts';

const readme = readFileSync(new URL('../../../corpus/README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('### Quote matching'), readme.indexOf('\n## ', readme.indexOf('### Quote matching')));
const normalization = section.slice(section.indexOf('**Normalization**'), section.indexOf('**Match.**'));

/** The numbered step `n` of the documented normalization, its lines joined. */
function step(n: number): string {
  const match = new RegExp(String.raw`\n${n}\. ([\s\S]*?)(?=\n\d+\. |\n*$)`).exec(normalization);
  assert.ok(match, `step ${n} is documented`);
  return match[1]!.replace(/\s+/g, ' ');
}

/** The code points a piece of the README lists: `U+XXXX` and `U+XXXX–U+YYYY` ranges. */
function codePoints(text: string): string[] {
  const chars: string[] = [];
  for (const [, from, to] of text.matchAll(/U\+([0-9A-F]{4})(?:–U\+([0-9A-F]{4}))?/g)) {
    for (let code = parseInt(from!, 16); code <= parseInt(to ?? from!, 16); code++) chars.push(String.fromCodePoint(code));
  }
  return chars;
}

describe('corpus/README.md "Quote matching"', () => {
  it('documents eight steps', () => {
    for (let n = 1; n <= 8; n++) step(n);
  });

  it('step 1: every listed typographic character folds to the ASCII character named', () => {
    const groups = [...step(1).matchAll(/((?:U\+[0-9A-F]{4},? )+)→ `(.)`/g)];
    assert.equal(groups.length, 4);
    for (const [, list, ascii] of groups) {
      for (const char of codePoints(list!)) assert.equal(normalizeForMatch(`a${char}b`), `a${ascii}b`, `U+${char.codePointAt(0)!.toString(16)}`);
    }
  });

  it('step 2: every listed vulgar fraction is spelled out after a space', () => {
    const chars = codePoints(/character \(([^)]*)\)/.exec(step(2))?.[1] ?? '');
    assert.equal(chars.length, 19);
    for (const char of chars) assert.match(normalizeForMatch(`4${char}`), /^4 \d+\/\d+$/, `U+${char.codePointAt(0)!.toString(16)}`);
  });

  it('step 5: every listed invisible character is removed', () => {
    const chars = codePoints(step(5));
    assert.equal(chars.length, 6);
    for (const char of chars) assert.equal(normalizeForMatch(`a${char}b`), 'ab');
  });

  it('step 8: every listed white space character, alone or in a run, is one space', () => {
    // The list is the parenthesis after "White_Space" (the step names U+0020 again after it).
    const chars = codePoints(/White_Space \(([^)]*)\)/.exec(step(8))?.[1] ?? '');
    assert.equal(chars.length, 25);
    for (const char of chars) {
      assert.equal(normalizeForMatch(`a${char}b`), 'a b');
      assert.equal(normalizeForMatch(`${char}a${char}${char} b${char}`), 'a b');
    }
  });

  it('match step 4 states the OCR layer rule the code uses: its share, its budget and its whole confusion table', () => {
    const match = section.slice(section.indexOf('**Match.**')).replace(/\s+/g, ' ');
    const rule = /\n?4\. OCR text layers .*?(?= A quote that normalizes to nothing)/.exec(match)?.[0] ?? '';
    assert.ok(rule.includes('at least half of the characters it shows are invisible text'), rule);
    assert.equal(OCR_LAYER_SHARE, 0.5);
    const budget = /at most one substitution per (\d+) letters of the quote, (\d+) at most/.exec(rule);
    assert.deepEqual([Number(budget?.[1]), Number(budget?.[2])], [OCR_LETTERS_PER_SUBSTITUTION, OCR_MAX_SUBSTITUTIONS]);
    const table = rule.slice(rule.indexOf('(quote → page)'), rule.indexOf('between two of'));
    const pairs = [...table.matchAll(/`([^`]+)`→`([^`]+)`/g)].map(([, from, to]) => `${from}>${to}`);
    const oneOrBar = /`l` or `i` → `1` or `\|`/.test(table) ? ['l>1', 'i>1', 'l>|', 'i>|'] : [];
    assert.deepEqual([...pairs, ...oneOrBar].sort(), OCR_CONFUSIONS.map(([from, to]) => `${from}>${to}`).sort());
  });

  it('states how many letters one unmapped glyph may stand for', () => {
    const rule = /stood for one to (\w+) of the quote's letters/.exec(section.replace(/\s+/g, ' '));
    assert.equal(['one', 'two', 'three', 'four'].indexOf(rule?.[1] ?? '') + 1, UNMAPPED_GLYPH_MAX_LETTERS);
  });

  it('states the unreadable text layer thresholds the code uses', () => {
    const rule = /a page is unreadable when at least 1 in (\d+) of its non-white-space characters are such\. A quote found in a PDF with unreadable pages is still `found`/.exec(section.replace(/\s+/g, ' '));
    assert.ok(rule, 'the rule is documented');
    assert.equal(1 / Number(rule[1]), UNREADABLE_PAGE_SHARE);
    const marks = /when a run of at least (\d+) words is joined by one repeated/.exec(section.replace(/\s+/g, ' '));
    assert.equal(Number(marks?.[1]), SPACE_AS_MARK_RUNS);
  });
});
