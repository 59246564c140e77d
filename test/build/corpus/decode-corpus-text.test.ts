/** decodeCorpusText: strict UTF-8, refused line by line, and a byte-order mark named rather than hidden. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CorpusProblem } from '../../../build/corpus/corpus-problem.ts';
import { decodeCorpusText } from '../../../build/corpus/decode-corpus-text.ts';

const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

describe('decodeCorpusText', () => {
  it('decodes UTF-8 unchanged, U+FEFF and U+FFFD inside the text included', () => {
    const text = '{"a":"Ñandú \ufeff \ufffd 😀"}\n{"b":1}\n';
    const problems: CorpusProblem[] = [];
    assert.deepEqual(decodeCorpusText(bytes(text), 'corpus/x.ndjson', problems), { text, invalidLines: new Set() });
    assert.deepEqual(problems, []);
  });

  const invalid: Array<[string, number[]]> = [
    ['a Latin-1 byte', [0xe9]],
    ['a sequence cut short', [0xe2, 0x82]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a byte that never occurs in UTF-8', [0xff]],
  ];
  for (const [what, sequence] of invalid) {
    it(`refuses ${what} on the line that holds it, and keeps the other lines`, () => {
      const problems: CorpusProblem[] = [];
      const decoded = decodeCorpusText(bytes('{"a":1}\n{"b":"caf', sequence, '"}\n{"c":3}\n'), 'corpus/x.ndjson', problems);
      assert.deepEqual(problems, [{ file: 'corpus/x.ndjson', line: 2, path: '$', message: 'holds bytes that are not UTF-8 (corpus files are UTF-8 text)' }]);
      assert.deepEqual([...decoded.invalidLines], [2]);
      assert.deepEqual(decoded.text.split('\n').filter((_, index) => index !== 1), ['{"a":1}', '{"c":3}', '']);
    });
  }

  it('names every line with invalid bytes, the last line without a newline included', () => {
    const problems: CorpusProblem[] = [];
    const decoded = decodeCorpusText(bytes([0xff], '\n{}\n', [0xe2, 0x82], '\n{}\n', [0xfe]), 'corpus/x.json', problems);
    assert.deepEqual(problems.map((problem) => problem.line), [1, 3, 5]);
    assert.deepEqual([...decoded.invalidLines], [1, 3, 5]);
    assert.deepEqual(decoded.text.split('\n'), ['\ufffd', '{}', '\ufffd', '{}', '\ufffd']);
  });

  it('names a byte-order mark at the start of the file, and removes it so the rest is still checked', () => {
    const problems: CorpusProblem[] = [];
    const decoded = decodeCorpusText(bytes([0xef, 0xbb, 0xbf], '{"a":1}\n'), 'corpus/manifest.json', problems);
    assert.deepEqual(problems, [{ file: 'corpus/manifest.json', line: 1, path: '$', message: 'byte-order mark at start of file (save the file as UTF-8 without BOM)' }]);
    assert.equal(decoded.text, '{"a":1}\n');
  });
});
