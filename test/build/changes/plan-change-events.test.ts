import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DetectedChange } from '../../../build/changes/diff-record.ts';
import { planChangeEvents } from '../../../build/changes/plan-change-events.ts';
import type { ChangeEventRow } from '../../../build/corpus/corpus-types.ts';

const at = '2026-11-16T06:00:00Z';
const status: DetectedChange = { city: 'beta', programId: 'b-one', programName: 'B One', type: 'status-changed', fromStatus: 'available', toStatus: 'closed' };
const amount: DetectedChange = { ...status, type: 'amount-changed', fromAmount: 100, toAmount: 200 };
const added: DetectedChange = { city: 'alpha', programId: 'a-two', programName: 'A Two', type: 'program-added', fromStatus: null, toStatus: 'available' };
const logged = (id: number, change: DetectedChange, detectedAt = '2026-11-09T06:00:00Z'): ChangeEventRow => ({ id, detectedAt, ...change });

describe('planChangeEvents', () => {
  const cases: Array<{ name: string; detected: DetectedChange[]; log: ChangeEventRow[]; previousMaxId: number; ids: number[]; types: string[] }> = [
    { name: 'empty log starts at 1, sorted by city, id, type', detected: [amount, status, added], log: [], previousMaxId: 0, ids: [1, 2, 3], types: ['program-added', 'status-changed', 'amount-changed'] },
    { name: 'continues from the highest logged id', detected: [status], log: [logged(3, added), logged(7, amount)], previousMaxId: 7, ids: [8], types: ['status-changed'] },
    { name: 'drops a change logged since the previous snapshot, at any time', detected: [status, amount], log: [logged(8, status)], previousMaxId: 7, ids: [9], types: ['amount-changed'] },
    { name: 'keeps a change identical to one logged before the previous snapshot', detected: [status], log: [logged(4, status)], previousMaxId: 7, ids: [5], types: ['status-changed'] },
    { name: 'keeps a change whose amounts differ from the logged one', detected: [{ ...amount, toAmount: 300 }], log: [logged(8, amount)], previousMaxId: 7, ids: [9], types: ['amount-changed'] },
    { name: 'keeps the flip back after a logged change', detected: [{ ...status, fromStatus: 'closed', toStatus: 'available' }], log: [logged(8, status)], previousMaxId: 7, ids: [9], types: ['status-changed'] },
  ];
  for (const { name, detected, log, previousMaxId, ids, types } of cases) {
    it(name, () => {
      const rows = planChangeEvents(detected, { log, previousMaxId, detectedAt: at });
      assert.deepEqual(rows.map((row) => row.id), ids);
      assert.deepEqual(rows.map((row) => row.type), types);
      for (const row of rows) assert.equal(row.detectedAt, at);
    });
  }

  it('writes keys in spec 2.7 order and amounts only on amount-changed', () => {
    const rows = planChangeEvents([status, amount], { log: [], previousMaxId: 0, detectedAt: at });
    assert.deepEqual(rows.map((row) => Object.keys(row)), [
      ['id', 'detectedAt', 'city', 'programId', 'programName', 'type', 'fromStatus', 'toStatus'],
      ['id', 'detectedAt', 'city', 'programId', 'programName', 'type', 'fromStatus', 'toStatus', 'fromAmount', 'toAmount'],
    ]);
  });
});
