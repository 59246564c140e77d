import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffRecord, type DetectedChange } from '../../../build/changes/diff-record.ts';
import type { RecordFacts } from '../../../build/changes/record-facts.ts';

const base: RecordFacts = { name: 'Roof Grant', fundingStatus: 'available', maxAmount: 15000, linkStatus: 'live' };
const at = { city: 'alpha', programId: 'a-roof', programName: 'Roof Grant' };

describe('diffRecord', () => {
  const cases: Array<{ name: string; previous?: RecordFacts; current?: RecordFacts; expected: DetectedChange[] }> = [
    { name: 'absent on both sides', expected: [] },
    { name: 'unchanged', previous: base, current: { ...base }, expected: [] },
    {
      name: 'added carries the current status',
      current: base,
      expected: [{ ...at, type: 'program-added', fromStatus: null, toStatus: 'available' }],
    },
    {
      name: 'removed carries the previous name and status',
      previous: { ...base, name: 'Old Roof Grant', fundingStatus: 'closed' },
      expected: [{ ...at, programName: 'Old Roof Grant', type: 'program-removed', fromStatus: 'closed', toStatus: null }],
    },
    {
      name: 'status changed',
      previous: base,
      current: { ...base, fundingStatus: 'waitlist' },
      expected: [{ ...at, type: 'status-changed', fromStatus: 'available', toStatus: 'waitlist' }],
    },
    {
      name: 'amount to null',
      previous: base,
      current: { ...base, maxAmount: null },
      expected: [{ ...at, type: 'amount-changed', fromStatus: 'available', toStatus: 'available', fromAmount: 15000, toAmount: null }],
    },
    {
      name: 'link status changed',
      previous: base,
      current: { ...base, linkStatus: 'dead' },
      expected: [{ ...at, type: 'link-status-changed', fromStatus: 'live', toStatus: 'dead' }],
    },
    {
      name: 'several at once, in CHANGE_TYPES order, named by the current name',
      previous: { ...base, name: 'Former Name', linkStatus: 'unchecked' },
      current: { ...base, fundingStatus: 'closed', maxAmount: 20000, linkStatus: 'bot-blocked' },
      expected: [
        { ...at, type: 'status-changed', fromStatus: 'available', toStatus: 'closed' },
        { ...at, type: 'amount-changed', fromStatus: 'available', toStatus: 'closed', fromAmount: 15000, toAmount: 20000 },
        { ...at, type: 'link-status-changed', fromStatus: 'unchecked', toStatus: 'bot-blocked' },
      ],
    },
    { name: 'a name change alone is not an event', previous: base, current: { ...base, name: 'Renamed' }, expected: [] },
  ];
  for (const { name, previous, current, expected } of cases) {
    it(name, () => assert.deepEqual(diffRecord('alpha', 'a-roof', previous, current), expected));
  }
});
