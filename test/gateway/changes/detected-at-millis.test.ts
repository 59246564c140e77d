import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectedAtMillis } from '../../../gateway/changes/detected-at-millis.ts';

describe('detectedAtMillis', () => {
  const cases: Array<{ text: string; iso: string }> = [
    { text: '2026-10-05T06:00:00Z', iso: '2026-10-05T06:00:00.000Z' },
    { text: '2026-10-05T06:00:00.123Z', iso: '2026-10-05T06:00:00.123Z' },
    { text: '2026-10-05T01:00:00+02:00', iso: '2026-10-04T23:00:00.000Z' },
    { text: '2026-10-04T23:30:00-05:00', iso: '2026-10-05T04:30:00.000Z' },
    { text: '2026-10-05t06:00:00z', iso: '2026-10-05T06:00:00.000Z' },
    { text: '2016-12-31T23:59:60Z', iso: '2016-12-31T23:59:59.000Z' },
    { text: '2016-12-31T23:59:60.5Z', iso: '2016-12-31T23:59:59.500Z' },
    { text: '2017-01-01T00:59:60+01:00', iso: '2016-12-31T23:59:59.000Z' },
  ];
  for (const { text, iso } of cases) {
    it(`reads ${text}`, () => assert.equal(new Date(detectedAtMillis(text)).toISOString(), iso));
  }

  it('is NaN for text that is no date-time', () => assert.ok(Number.isNaN(detectedAtMillis('soon'))));
});
