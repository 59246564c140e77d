import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readWorksheet, WorksheetError } from '../../../build/worksheets/read-worksheet.ts';
import { guardCell, unguardCell } from '../../../build/worksheets/spreadsheet-cell.ts';
import { writeWorksheet } from '../../../build/worksheets/write-worksheet.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const dir = makeTempDir('hra-worksheet-');
after(() => rmSync(dir, { recursive: true, force: true }));
const COLUMNS = ['city', 'note', 'amount'] as const;
let files = 0;
const sheet = (text: string | Buffer) => {
  const file = join(dir, `sheet-${(files += 1)}.csv`);
  writeFileSync(file, text);
  return file;
};
const refusal = (text: string) => {
  try {
    readWorksheet(sheet(text), 'w.csv', COLUMNS);
  } catch (error) {
    assert.ok(error instanceof WorksheetError, String(error));
    return error.message;
  }
  assert.fail('the worksheet was read');
};

describe('writeWorksheet and readWorksheet', () => {
  const hostile = [
    { city: '=HYPERLINK("http://x.example/","click")', note: '+1 two, "three"\nfour', amount: '-5' },
    { city: '@SUM(A1)', note: '\tindented', amount: '\r' },
    { city: "'already quoted", note: 'plain', amount: '' },
  ];

  it('neutralises every cell a spreadsheet would run as a formula, and reads each back as written', () => {
    const text = writeWorksheet(COLUMNS, hostile);
    for (const line of text.split('\r\n').slice(1)) assert.doesNotMatch(line, /^[=+\-@\t\r]/, line);
    assert.match(text, /^city,note,amount\r\n"'=HYPERLINK/);
    const rows = readWorksheet(sheet(text), 'w.csv', COLUMNS);
    assert.deepEqual(rows.map((row) => row.cells), hostile);
    assert.deepEqual(rows.map((row) => row.row), [2, 3, 4]);
  });

  it('reads what a spreadsheet saves: a byte order mark, CRLF or LF, quoted commas, quotes and line breaks', () => {
    const saved = '\uFEFFcity,note,amount\r\nalpha,"one, two ""three""\r\nfour",5\r\nbeta,plain,\n';
    const rows = readWorksheet(sheet(saved), 'w.csv', COLUMNS);
    assert.deepEqual(rows, [
      { row: 2, cells: { city: 'alpha', note: 'one, two "three"\r\nfour', amount: '5' } },
      { row: 3, cells: { city: 'beta', note: 'plain', amount: '' } },
    ]);
  });

  it('refuses moved, missing and added columns by name, and a row of another width by its row', () => {
    assert.match(refusal('note,city,amount\r\n'), /^w\.csv row 1: column 1 must be "city", found "note" \(columns must stay city,note,amount, in that order\)$/);
    assert.match(refusal('city,note\r\n'), /^w\.csv row 1: column 3 must be "amount", found nothing/);
    assert.match(refusal('city,note,amount,extra\r\n'), /^w\.csv row 1: column 4 "extra" is not a worksheet column/);
    assert.match(refusal('city,note,amount\r\na,b,c\r\na,b\r\n'), /^w\.csv row 3: 2 cells, the header has 3$/);
    assert.match(refusal(''), /^w\.csv: empty worksheet/);
  });

  it('refuses bytes that are not UTF-8 rather than guessing an encoding', () => {
    assert.throws(() => readWorksheet(sheet(Buffer.from([0x63, 0x69, 0x74, 0x79, 0xe9, 0x0a])), 'w.csv', COLUMNS), /w\.csv: not UTF-8 text/);
  });
});

describe('guardCell', () => {
  it('prefixes exactly the cells that start a formula or an apostrophe, and unguardCell undoes it', () => {
    for (const value of ['=1', '+1', '-1', '@a', '\ta', '\ra', "'a", 'a=1', '1', '']) {
      assert.equal(unguardCell(guardCell(value)), value);
      assert.equal(guardCell(value) !== value, /^[=+\-@\t\r']/.test(value), value);
    }
  });
});
