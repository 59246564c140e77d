import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHostGate } from '../../../build/links/host-gate.ts';
import type { LinkVerdict } from '../../../build/links/link-check-types.ts';
import { runLinkChecks } from '../../../build/links/run-link-checks.ts';
import { FakeTimers } from '../../support/fake-timers.ts';

const live: LinkVerdict = { outcome: 'live', httpStatus: 200, pageClass: 'program', reason: 'test' };
const urlsOf = (host: string, count: number) => Array.from({ length: count }, (_, i) => `http://${host}/p${i}`);

describe('runLinkChecks', () => {
  it('checks every URL once, within the global and per-host limits, reporting in completion order', async () => {
    const timers = new FakeTimers();
    const urls = [...urlsOf('big.test', 12), ...urlsOf('mid.test', 5), ...Array.from({ length: 20 }, (_, i) => `http://h${i}.test/`)];
    let active = 0;
    let peak = 0;
    const perHost = new Map<string, number>();
    let hostPeak = 0;
    const done: string[] = [];
    const run = runLinkChecks({
      urls, concurrency: 6, perHost: 2, readyAt: () => Number.NEGATIVE_INFINITY, timers,
      async check(url) {
        const host = new URL(url).host;
        active += 1;
        perHost.set(host, (perHost.get(host) ?? 0) + 1);
        peak = Math.max(peak, active);
        hostPeak = Math.max(hostPeak, perHost.get(host) ?? 0);
        await new Promise<void>((resolve) => timers.setTimeout(resolve, 10 + (url.length % 7)));
        active -= 1;
        perHost.set(host, (perHost.get(host) ?? 0) - 1);
        return live;
      },
      onResult: (url) => done.push(url),
    });
    await timers.advance(10_000);
    await run;
    assert.deepEqual([...done].sort(), [...urls].sort());
    assert.equal(peak, 6, 'the global limit is used, and not exceeded');
    assert.equal(hostPeak, 2, 'two at once on one host, never three');
  });

  it('gives the slots to hosts that may start now instead of waiting on one that may not', async () => {
    const timers = new FakeTimers();
    const gate = createHostGate({ perHost: 1, intervalMs: 1000, timers });
    const started: Array<[string, number]> = [];
    const run = runLinkChecks({
      urls: [...urlsOf('slow.test', 3), 'http://a.test/', 'http://b.test/'], concurrency: 2, perHost: 1, readyAt: (host) => gate.readyAt(host), timers,
      async check(url) {
        const release = await gate.acquire(new URL(url).host);
        started.push([url, timers.now()]);
        release();
        return live;
      },
      onResult: () => {},
    });
    await timers.advance(5000);
    await run;
    assert.deepEqual(started.filter(([, at]) => at === 0).map(([url]) => url).sort(), ['http://a.test/', 'http://b.test/', 'http://slow.test/p0']);
    assert.deepEqual(started.filter(([url]) => url.includes('slow')).map(([, at]) => at), [0, 1000, 2000]);
  });

  it('stops starting URLs after a failed check, lets the others finish, then rejects with that error', async () => {
    const timers = new FakeTimers();
    const failure = new Error('proxy refused');
    const checked: string[] = [];
    const recorded: string[] = [];
    const run = runLinkChecks({
      urls: urlsOf('a.test', 1).concat(urlsOf('b.test', 5)), concurrency: 2, perHost: 1, readyAt: () => Number.NEGATIVE_INFINITY, timers,
      async check(url) {
        checked.push(url);
        await new Promise<void>((resolve) => timers.setTimeout(resolve, url.includes('a.test') ? 5 : 20));
        if (url.includes('a.test')) throw failure;
        return live;
      },
      onResult: (url) => recorded.push(url),
    });
    const settled = run.then(() => undefined, (error: unknown) => error);
    await timers.advance(1000);
    assert.equal(await settled, failure);
    assert.deepEqual(checked.sort(), ['http://a.test/p0', 'http://b.test/p0'], 'b.test/p1 never started');
    assert.deepEqual(recorded, ['http://b.test/p0'], 'the check in flight still finished and was recorded');
  });

  it('checks a URL put back with `again` anew, at the end of its host\'s queue', async () => {
    const timers = new FakeTimers();
    const checked: string[] = [];
    let putBack = false;
    const run = runLinkChecks({
      urls: urlsOf('a.test', 3), concurrency: 1, perHost: 1, readyAt: () => Number.NEGATIVE_INFINITY, timers,
      check: async (url) => {
        checked.push(url);
        return live;
      },
      onResult(url, _result, again) {
        if (url.endsWith('/p0') && !putBack) {
          putBack = true;
          again(url);
        }
      },
    });
    await timers.advance(10);
    await run;
    assert.deepEqual(checked, ['http://a.test/p0', 'http://a.test/p1', 'http://a.test/p2', 'http://a.test/p0']);
  });

  it('holds new URLs back while mayStart says no and something is in flight, and asks again as each finishes', async () => {
    const timers = new FakeTimers();
    const started: Array<[string, number]> = [];
    let open = false;
    const run = runLinkChecks({
      urls: [...urlsOf('a.test', 2), ...urlsOf('b.test', 2)], concurrency: 4, perHost: 2, readyAt: () => Number.NEGATIVE_INFINITY, timers,
      mayStart: (host) => open || host === 'a.test',
      async check(url) {
        started.push([url, timers.now()]);
        await new Promise<void>((resolve) => timers.setTimeout(resolve, url.endsWith('/p1') ? 100 : 50));
        return live;
      },
      onResult(url) {
        if (url === 'http://a.test/p0') open = true;
      },
    });
    await timers.advance(1000);
    await run;
    assert.deepEqual(started, [['http://a.test/p0', 0], ['http://a.test/p1', 0], ['http://b.test/p0', 50], ['http://b.test/p1', 50]]);
  });

  it('resolves at once with nothing to check', async () => {
    await runLinkChecks({ urls: [], concurrency: 2, perHost: 1, readyAt: () => 0, timers: new FakeTimers(), check: async () => live, onResult: () => {} });
  });
});
