import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatCorpusLine } from '../../../build/corpus/format-corpus-line.ts';

describe('formatCorpusLine', () => {
  it('writes the spaced style of the hand-written corpus lines', () => {
    assert.equal(
      formatCorpusLine({ url: 'https://a.example/', checkedAt: '2026-07-06', outcome: 'live', httpStatus: 200, amounts: [{ text: '$5', value: 5 }, { text: '$6', value: 6 }], empty: [], none: {} }),
      '{"url": "https://a.example/", "checkedAt": "2026-07-06", "outcome": "live", "httpStatus": 200, "amounts": [{"text": "$5", "value": 5}, {"text": "$6", "value": 6}], "empty": [], "none": {}}',
    );
  });

  it('keeps string contents as they are, escaped newlines, commas and colons included', () => {
    assert.equal(formatCorpusLine({ note: 'a,\n b: c', tab: '\t' }), '{"note": "a,\\n b: c", "tab": "\\t"}');
  });

  it('gives back the demo corpus lines byte for byte', () => {
    for (const file of ['corpus/evidence/link-checks.ndjson', 'corpus/changes.ndjson', 'corpus/cities.ndjson']) {
      for (const line of readFileSync(file, 'utf8').trimEnd().split('\n')) assert.equal(formatCorpusLine(JSON.parse(line)), line, file);
    }
  });

  it('is one line that parses back to the same value, for any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const line = formatCorpusLine(value);
      assert.equal(line.includes('\n'), false);
      assert.deepEqual(JSON.parse(line), JSON.parse(JSON.stringify(value)));
    }));
  });
});
