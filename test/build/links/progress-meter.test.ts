import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProgressMeter, ETA_SAMPLE } from '../../../build/links/progress-meter.ts';

function meterOf(total: number, floorMs?: () => number) {
  let now = 0;
  const lines: string[] = [];
  const meter = createProgressMeter({ total, now: () => now, write: (line) => lines.push(line), residentBytes: () => 123_400_000, everyMs: 5000, ...(floorMs ? { floorMs } : {}) });
  return { meter, lines, at: (ms: number) => (now = ms) };
}

describe('createProgressMeter', () => {
  it('writes done/total, rate, ETA and memory at most once per interval', () => {
    const { meter, lines, at } = meterOf(1000);
    meter.startEta();
    for (let i = 0; i < 100; i += 1) {
      at((i + 1) * 40);
      meter.tick();
    }
    assert.deepEqual(lines, []);
    at(5000);
    meter.tick();
    assert.deepEqual(lines, ['links: 101/1000 checked (10.1%), 20.2/s, eta 45 s, rss 123 MB']);
    at(6000);
    meter.tick();
    assert.equal(lines.length, 1);
    at(120_000);
    assert.equal(meter.line(), 'links: 102/1000 checked (10.2%), 0.8/s, eta 17 min 36 s, rss 123 MB');
  });

  it('shows no ETA while the network is in doubt (before startEta), however fast URLs finish', () => {
    const { meter, lines, at } = meterOf(1000);
    for (let i = 0; i < 200; i += 1) {
      at(i * 40);
      meter.tick();
    }
    assert.ok(lines.length > 0);
    for (const line of lines) assert.match(line, /, eta unknown, /);
  });

  it(`draws the ETA from the rate since startEta, once ${ETA_SAMPLE} URLs have finished after it`, () => {
    const { meter, at } = meterOf(1000);
    // The first window: 50 held attempts released at once, 60 s into the run.
    at(60_000);
    for (let i = 0; i < 50; i += 1) meter.tick();
    meter.startEta();
    for (let i = 1; i < ETA_SAMPLE; i += 1) {
      at(60_000 + i * 1000);
      meter.tick();
    }
    assert.match(meter.line(), /, eta unknown, /, 'one URL short of the sample');
    at(60_000 + ETA_SAMPLE * 1000);
    meter.tick();
    // 20 URLs in 20 s since startEta: 930 left take 930 s, not the 50-at-once burst's rate.
    assert.match(meter.line(), /^links: 70\/1000 checked \(7\.0%\), 0\.9\/s, eta 15 min 30 s, /);
  });

  it('never shows an ETA below the politeness floor', () => {
    const { meter, at } = meterOf(100, () => 40 * 60_000);
    meter.startEta();
    for (let i = 1; i <= ETA_SAMPLE; i += 1) {
      at(i * 10);
      meter.tick();
    }
    assert.match(meter.line(), /, eta 40 min 0 s, /);
  });
});
