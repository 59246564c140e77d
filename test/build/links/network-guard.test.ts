/** The no-network guard's decisions, on a driven clock (the CLI and run tests exercise it over real sockets). */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { LinkVerdict } from '../../../build/links/link-check-types.ts';
import { CONFIRM_AFTER_MS, createNetworkGuard, FIRST_WINDOW, LOST_AFTER_MS, MIN_HOSTS, NetworkUnavailable, UNREACHABLE_SHARE } from '../../../build/links/network-guard.ts';
import { ETA_SAMPLE } from '../../../build/links/progress-meter.ts';

const dns: LinkVerdict = { outcome: 'inconclusive', httpStatus: null, reason: 'dns: getaddrinfo EAI_AGAIN x.test', unreachable: true };
const live: LinkVerdict = { outcome: 'live', httpStatus: 200, pageClass: 'program', reason: 'status 200' };
const badGateway: LinkVerdict = { outcome: 'inconclusive', httpStatus: 502, reason: 'status 502; after 2 retries' };

function guardOf(attempts: number, hosts: number, viaProxy = false) {
  let clock = 0;
  const guard = createNetworkGuard<string>({ attempts, hosts, viaProxy, now: () => clock });
  const recorded: string[] = [];
  let stopped: NetworkUnavailable | undefined;
  const feed = (host: string, verdict: LinkVerdict, item = `${host}#${recorded.length}`) => {
    try {
      recorded.push(...guard.accept({ host, verdict, item }));
    } catch (error) {
      if (!(error instanceof NetworkUnavailable)) throw error;
      assert.equal(stopped, undefined, 'stops once');
      stopped = error;
    }
  };
  return { guard, recorded, feed, tick: (ms: number) => (clock += ms), stopped: () => stopped };
}

describe('createNetworkGuard', () => {
  it('stops a run whose first attempts all fail at DNS, recording nothing, and ignores what finishes after', () => {
    const run = guardOf(400, 120);
    for (let i = 0; i < 45; i += 1) run.feed(`h${i % 20}.test`, dns);
    assert.equal(run.stopped()?.phase, 'first-window');
    assert.match(run.stopped()?.message ?? '', /^45 of the first 45 attempts \(20 hosts\) never reached their host \(last: dns: getaddrinfo EAI_AGAIN x\.test\)$/);
    run.feed('late.test', live);
    assert.deepEqual(run.recorded, []);
    assert.deepEqual(run.guard.finish(), []);
  });

  it('stops a small run in which every host failed (fewer hosts than the usual eight)', () => {
    const run = guardOf(3, 3);
    run.feed('a.test', dns);
    run.feed('b.test', dns);
    assert.equal(run.stopped(), undefined);
    run.feed('c.test', dns);
    assert.equal(run.stopped()?.phase, 'first-window');
  });

  it('does not stop when the failures stay on fewer than eight hosts', () => {
    const run = guardOf(60, 30);
    for (let i = 0; i < 50; i += 1) run.feed(`h${i % 7}.test`, dns);
    assert.equal(run.stopped(), undefined);
    assert.equal(run.recorded.length, 50, 'the window closed and let them through');
  });

  it('lets a healthy run with one dead host through, in completion order, holding back only until the window decides', () => {
    const run = guardOf(20, 12);
    const order: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const host = i % 4 === 0 ? 'dead.test' : `h${i}.test`;
      order.push(`${host}#${i}`);
      run.feed(host, host === 'dead.test' ? dns : live, `${host}#${i}`);
    }
    assert.equal(run.stopped(), undefined);
    assert.deepEqual([...run.recorded, ...run.guard.finish()], order);
  });

  it('releases the first window as soon as a stop is out of reach', () => {
    const run = guardOf(500, 200);
    for (let i = 0; i < 5; i += 1) run.feed(`ok${i}.test`, live);
    assert.equal(run.recorded.length, 0, 'five answers of fifty could still be a dead network');
    run.feed('ok5.test', live);
    assert.equal(run.recorded.length, 6);
    run.feed('ok6.test', live);
    assert.equal(run.recorded.length, 7, 'then each attempt goes through as it finishes');
  });

  it('counts a 502 as unreachable through a proxy only', () => {
    const proxied = guardOf(10, 10, true);
    for (let i = 0; i < 9; i += 1) proxied.feed(`h${i}.test`, badGateway);
    assert.equal(proxied.stopped()?.phase, 'first-window');
    const direct = guardOf(10, 10, false);
    for (let i = 0; i < 10; i += 1) direct.feed(`h${i}.test`, badGateway);
    assert.equal(direct.stopped(), undefined);
    assert.equal(direct.recorded.length, 10);
  });

  it('counts a 503 or 504 through a proxy too (a proxy with no way out may answer either), never a 500', () => {
    for (const httpStatus of [503, 504]) {
      const proxied = guardOf(10, 10, true);
      for (let i = 0; i < 9; i += 1) proxied.feed(`h${i}.test`, { outcome: 'inconclusive', httpStatus, reason: `status ${httpStatus}; after 2 retries` });
      assert.equal(proxied.stopped()?.phase, 'first-window', String(httpStatus));
    }
    const serverErrors = guardOf(10, 10, true);
    for (let i = 0; i < 10; i += 1) serverErrors.feed(`h${i}.test`, { outcome: 'inconclusive', httpStatus: 500, reason: 'status 500; after 2 retries' });
    assert.equal(serverErrors.stopped(), undefined);
  });

  it('stops later in a run after a minute of failures on every host, keeping what it recorded before', () => {
    const run = guardOf(1000, 300);
    for (let i = 0; i < 60; i += 1) run.feed(`h${i}.test`, live);
    assert.equal(run.recorded.length, 60);
    for (let i = 0; i < 12; i += 1) {
      run.tick(LOST_AFTER_MS / 12);
      run.feed(`gone${i}.test`, dns);
    }
    assert.equal(run.stopped(), undefined, 'eleven twelfths of a minute after the first failure');
    run.tick(LOST_AFTER_MS / 12);
    run.feed('gone12.test', dns);
    assert.equal(run.stopped()?.phase, 'mid-run');
    assert.match(run.stopped()?.message ?? '', /^every attempt for 60 s \(13 hosts\) failed to reach its host/);
    assert.equal(run.recorded.length, 60, 'the held failures are not recorded');
  });

  it('records a streak of failures once any host answers again, in order, and starts the minute afresh', () => {
    const run = guardOf(1000, 300);
    for (let i = 0; i < 50; i += 1) run.feed(`h${i}.test`, live);
    for (let i = 0; i < 10; i += 1) {
      run.tick(5_000);
      run.feed(`blip${i}.test`, dns, `blip${i}`);
    }
    assert.equal(run.recorded.length, 50);
    run.feed('back.test', live, 'back');
    assert.deepEqual(run.recorded.slice(50), [...Array.from({ length: 10 }, (_, i) => `blip${i}`), 'back']);
    for (let i = 0; i < 10; i += 1) {
      run.tick(5_000);
      run.feed(`blip${i}.test`, dns);
    }
    assert.equal(run.stopped(), undefined, '45 s since the new streak began');
  });

  it('does not stop on one dead host at the tail of a run, however long it takes', () => {
    const run = guardOf(200, 20);
    for (let i = 0; i < 50; i += 1) run.feed(`h${i % 19}.test`, live);
    for (let i = 0; i < 100; i += 1) {
      run.tick(2_000);
      run.feed('dead.test', dns);
    }
    assert.equal(run.stopped(), undefined);
    assert.equal(run.guard.finish().length, 100);
  });
});

describe('createNetworkGuard, one URL', () => {
  it('stops a run of one URL whose host cannot be reached: too small to tell a dead site from no network', () => {
    const guard = createNetworkGuard<string>({ attempts: 1, hosts: 1, viaProxy: false, now: () => 0 });
    assert.throws(() => guard.accept({ host: 'lapsed.test', verdict: dns, item: 'x' }), /^NetworkUnavailable: 1 of the first 1 attempts \(1 host\) never reached their host/);
  });
});

describe('createNetworkGuard, confirming a first-window stop', () => {
  /** A guard with `confirm`: what it asked to retry, and when. */
  function confirmingGuard(attempts: number, hosts: number) {
    let clock = 0;
    const asked: Array<{ items: string[]; notBefore: number }> = [];
    const guard = createNetworkGuard<string>({ attempts, hosts, viaProxy: false, now: () => clock, confirm: (items, notBefore) => asked.push({ items, notBefore }) });
    const recorded: string[] = [];
    let stopped: NetworkUnavailable | undefined;
    const feed = (host: string, verdict: LinkVerdict, item: string) => {
      try {
        recorded.push(...guard.accept({ host, verdict, item }));
      } catch (error) {
        if (!(error instanceof NetworkUnavailable)) throw error;
        stopped = error;
      }
    };
    return { guard, asked, recorded, feed, at: (ms: number) => (clock = ms), stopped: () => stopped };
  }

  it('retries one failed attempt on each of eight hosts, not before the first failure plus CONFIRM_AFTER_MS, and stops once each fails again', () => {
    const run = confirmingGuard(400, 120);
    assert.equal(run.guard.inDoubt(), true);
    run.at(100);
    for (let i = 0; i < 45; i += 1) run.feed(`h${i % 20}.test`, dns, `first${i}`);
    assert.equal(run.stopped(), undefined, 'not on first tries alone');
    assert.deepEqual(run.asked, [{ items: Array.from({ length: MIN_HOSTS }, (_, i) => `first${i}`), notBefore: 100 + CONFIRM_AFTER_MS }]);
    // A failure on a confirming host before notBefore (a try started earlier) confirms nothing.
    run.feed('h0.test', dns, 'early');
    run.at(100 + CONFIRM_AFTER_MS);
    for (let i = 0; i < MIN_HOSTS - 1; i += 1) run.feed(`h${i}.test`, dns, `again${i}`);
    run.feed('h19.test', dns, 'not-asked');
    assert.equal(run.stopped(), undefined, 'one confirming host left');
    run.feed(`h${MIN_HOSTS - 1}.test`, dns, 'last');
    assert.equal(run.stopped()?.phase, 'first-window');
    assert.match(run.stopped()?.message ?? '', /^45 of the first 45 attempts \(20 hosts\) never reached their host/);
    assert.deepEqual(run.recorded, []);
    assert.equal(run.guard.inDoubt(), true, 'nothing is recorded after a stop');
  });

  it('goes on, releasing every held attempt but the ones it asked to retry, when a confirming host answers', () => {
    const run = confirmingGuard(400, 120);
    for (let i = 0; i < 45; i += 1) run.feed(`h${i % 20}.test`, dns, `first${i}`);
    run.at(CONFIRM_AFTER_MS);
    run.feed('h3.test', live, 'back');
    assert.equal(run.stopped(), undefined);
    assert.equal(run.guard.inDoubt(), false);
    const retried = new Set(run.asked[0]?.items);
    assert.deepEqual(run.recorded, [...Array.from({ length: 45 }, (_, i) => `first${i}`).filter((item) => !retried.has(item)), 'back']);
  });

  it('stops at once, unconfirmed, when every failure of the window lasts (the proxy\'s own 407)', () => {
    const run = confirmingGuard(400, 120);
    const auth: LinkVerdict = { outcome: 'inconclusive', httpStatus: null, reason: 'proxy: the proxy demands credentials (407 Proxy Authentication Required)', unreachable: true, lasting: true };
    for (let i = 0; i < 44; i += 1) run.feed(`h${i % 20}.test`, auth, `first${i}`);
    run.feed('h44.test', dns, 'one-passing');
    assert.equal(run.stopped(), undefined, 'one failure that could pass asks for confirmation');
    const lasting = confirmingGuard(400, 120);
    for (let i = 0; i < 45; i += 1) lasting.feed(`h${i % 20}.test`, auth, `first${i}`);
    assert.equal(lasting.stopped()?.phase, 'first-window');
    assert.deepEqual(lasting.asked, []);
  });

  it('lets only the confirming hosts decide: an answer elsewhere is held, not a reason to go on', () => {
    const run = confirmingGuard(400, 120);
    for (let i = 0; i < 45; i += 1) run.feed(`h${i % 20}.test`, dns, `first${i}`);
    run.feed('elsewhere.test', live, 'elsewhere');
    assert.equal(run.guard.inDoubt(), true);
    assert.deepEqual(run.recorded, []);
  });
});

describe('corpus/README.md "No network"', () => {
  it('states the thresholds the guard and the progress meter use', () => {
    const readme = readFileSync(new URL('../../../corpus/README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('**No network**');
    const paragraph = readme.slice(start, readme.indexOf('\n\n', start)).replace(/\s+/g, ' ');
    for (const stated of [
      `the run's first ${FIRST_WINDOW} have finished`, `at least ${UNREACHABLE_SHARE * 100}% of the window`, `at least ${MIN_HOSTS} distinct hosts`,
      `on each of ${MIN_HOSTS} of those hosts`, `no sooner than ${CONFIRM_AFTER_MS / 1000} s after the first failure`,
      `for the next ${ETA_SAMPLE} URLs`, `lasts ${LOST_AFTER_MS / 1000} s across at least ${MIN_HOSTS} hosts`,
    ]) assert.ok(paragraph.includes(stated), stated);
  });
});
