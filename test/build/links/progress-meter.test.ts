import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProgressMeter } from '../../../build/links/progress-meter.ts';

describe('createProgressMeter', () => {
  it('writes done/total, rate, ETA and memory at most once per interval', () => {
    let now = 0;
    const lines: string[] = [];
    const meter = createProgressMeter({ total: 1000, now: () => now, write: (line) => lines.push(line), residentBytes: () => 123_400_000, everyMs: 5000 });
    for (let i = 0; i < 100; i += 1) {
      now += 40;
      meter.tick();
    }
    assert.deepEqual(lines, []);
    now = 5000;
    meter.tick();
    assert.deepEqual(lines, ['links: 101/1000 checked (10.1%), 20.2/s, eta 45 s, rss 123 MB']);
    now = 6000;
    meter.tick();
    assert.equal(lines.length, 1);
    now = 120_000;
    assert.equal(meter.line(), 'links: 102/1000 checked (10.2%), 0.8/s, eta 17 min 36 s, rss 123 MB');
  });
});
