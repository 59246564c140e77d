import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHARS_PER_TOKEN, selectPassages } from '../../../build/reviews/select-passages.ts';

const filler = (words: number, seed: string) => Array.from({ length: words }, (_, i) => `${seed}${i}`).join(' ');

describe('selectPassages', () => {
  it('offers the opening and the text around each amount and the name, and nothing else', () => {
    const text = `Roof Repair Grant ${filler(300, 'a')} Homeowners may receive up to $7,500 for roofs. ${filler(300, 'b')} The Porch Fix program helps. ${filler(300, 'c')}`;
    const { passages, leftOut } = selectPassages(text, 'Porch Fix');
    assert.equal(leftOut, 0);
    assert.equal(passages.length, 3);
    assert.ok(passages[0]!.startsWith('Roof Repair Grant'));
    assert.ok(passages[1]!.includes('up to $7,500 for roofs.'));
    assert.ok(passages[2]!.includes('The Porch Fix program helps.'));
    // Far from any anchor: not offered.
    assert.ok(!passages.join(' ').includes('a150 '));
    assert.ok(!passages.join(' ').includes('b150 '));
  });

  it('is deterministic and stays within its budget, counting what it left out', () => {
    const text = Array.from({ length: 200 }, (_, i) => `${filler(80, `w${i}x`)} grant of $${1000 + i} here.`).join(' ');
    const first = selectPassages(text, 'none such', 200);
    assert.deepEqual(selectPassages(text, 'none such', 200), first);
    assert.ok(first.chars <= 200 * CHARS_PER_TOKEN, `${first.chars}`);
    assert.ok(first.leftOut > 0);
    assert.equal(first.chars, first.passages.reduce((sum, p) => sum + p.length, 0));
  });

  it('merges overlapping windows into one passage', () => {
    const text = `${filler(200, 'p')} $100 and $200 and $300 ${filler(200, 'q')}`;
    const { passages } = selectPassages(text, '');
    assert.equal(passages.filter((p) => p.includes('$100')).length, 1);
    assert.ok(passages.some((p) => p.includes('$100 and $200 and $300')));
  });
});
