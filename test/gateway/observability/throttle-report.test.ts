import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { throttleReport } from '../../../gateway/observability/throttle-report.ts';

describe('throttleReport', () => {
  it('reports at most once per interval, and says how many calls it dropped since the last report', () => {
    let clock = 1_000;
    const lines: Array<[number, string]> = [];
    const report = throttleReport((dropped: number, what: string) => lines.push([dropped, what]), 60_000, () => clock);
    report('a');
    for (let n = 0; n < 500; n += 1) report('flood');
    clock += 59_999;
    report('still inside');
    clock += 1;
    report('b');
    assert.deepEqual(lines, [[0, 'a'], [501, 'b']]);
  });
});
