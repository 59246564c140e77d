import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { appendChangeLog } from '../../../build/changes/append-change-log.ts';
import type { ChangeEventRow } from '../../../build/corpus/corpus-types.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const row: ChangeEventRow = {
  id: 2, detectedAt: '2026-11-16T06:00:00Z', city: 'alpha', programId: 'a-one', programName: 'A One',
  type: 'program-removed', fromStatus: 'closed', toStatus: null,
};
// The corpus's hand-written style, which appended lines keep.
const line = '{"id": 2, "detectedAt": "2026-11-16T06:00:00Z", "city": "alpha", "programId": "a-one", "programName": "A One", "type": "program-removed", "fromStatus": "closed", "toStatus": null}';
const first = '{"id": 1, "detectedAt": "2026-11-09T06:00:00Z", "city": "alpha", "programName": null, "type": "program-added", "fromStatus": null, "toStatus": null}';

describe('appendChangeLog', () => {
  const cases: Array<{ name: string; before: string | undefined; rows: ChangeEventRow[]; after: string | undefined }> = [
    { name: 'creates the log when absent', before: undefined, rows: [row], after: `${line}\n` },
    { name: 'keeps the existing bytes and appends', before: `${first}\n`, rows: [row], after: `${first}\n${line}\n` },
    { name: 'adds the missing final newline', before: first, rows: [row], after: `${first}\n${line}\n` },
    { name: 'drops trailing blank lines rather than burying them', before: `${first}\n\n\n`, rows: [row], after: `${first}\n${line}\n` },
    { name: 'writes nothing for no rows', before: undefined, rows: [], after: undefined },
  ];
  for (const { name, before, rows, after } of cases) {
    it(name, () => {
      const dir = makeTempDir('hra-change-log-');
      const file = join(dir, 'changes.ndjson');
      if (before !== undefined) writeFileSync(file, before);
      appendChangeLog(dir, rows);
      assert.equal(existsSync(file) ? readFileSync(file, 'utf8') : undefined, after);
      assert.deepEqual(readdirSync(dir).filter((name) => name !== 'changes.ndjson'), [], 'no temporary file is left behind');
    });
  }
});
