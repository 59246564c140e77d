import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHostGate } from '../../../build/links/host-gate.ts';
import { FakeTimers, settle } from '../../support/fake-timers.ts';

describe('createHostGate', () => {
  it('lets at most perHost requests run on one host, other hosts unaffected', async () => {
    const timers = new FakeTimers();
    const gate = createHostGate({ perHost: 2, intervalMs: 0, timers });
    const granted: string[] = [];
    const releases: Array<() => void> = [];
    for (const name of ['a1', 'a2', 'a3', 'b1']) {
      void gate.acquire(name[0] === 'a' ? 'a.test' : 'b.test').then((release) => {
        granted.push(name);
        releases.push(release);
      });
    }
    await settle();
    assert.deepEqual(granted, ['a1', 'a2', 'b1']);
    assert.equal(gate.inFlight('a.test'), 2);
    releases[0]?.();
    releases[0]?.(); // a second call of the same release frees nothing more
    await settle();
    assert.deepEqual(granted, ['a1', 'a2', 'b1', 'a3']);
    assert.equal(gate.inFlight('a.test'), 2);
  });

  it('spaces request starts on one host by intervalMs, exactly at the boundary', async () => {
    const timers = new FakeTimers();
    const gate = createHostGate({ perHost: 5, intervalMs: 1000, timers });
    const starts: number[] = [];
    for (let i = 0; i < 3; i += 1) void gate.acquire('a.test').then((release) => { starts.push(timers.now()); release(); });
    await timers.advance(999);
    assert.deepEqual(starts, [0]);
    await timers.advance(1);
    assert.deepEqual(starts, [0, 1000]);
    await timers.advance(5000);
    assert.deepEqual(starts, [0, 1000, 2000]);
    assert.equal(gate.readyAt('a.test'), 3000);
  });

  it('holds a deferred host until the deferral ends, and never moves it earlier', async () => {
    const timers = new FakeTimers();
    const gate = createHostGate({ perHost: 2, intervalMs: 100, timers });
    gate.defer('a.test', 5000);
    gate.defer('a.test', 2000);
    let started = -1;
    void gate.acquire('a.test').then((release) => { started = timers.now(); release(); });
    await timers.advance(4999);
    assert.equal(started, -1);
    await timers.advance(1);
    assert.equal(started, 5000);
  });
});
