/**
 * A whole run (checkCorpusLinks) over real sockets when the network is missing or goes away: a resolver
 * that cannot answer (injected: EAI_AGAIN, as on a machine without one), and a proxy that loses its way
 * out mid-run, with the run's clock driven so the minute of failures passes without waiting for it.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCorpusLinks, type LinkRunDeps, type LinkRunOptions } from '../../../build/links/check-corpus-links.ts';
import type { LinkCheck } from '../../../build/corpus/corpus-types.ts';
import { createLinkDispatcher } from '../../../build/links/create-link-dispatcher.ts';
import { NetworkUnavailable } from '../../../build/links/network-guard.ts';
import { startBadGatewayProxy } from '../../support/bad-gateway-proxy.ts';

const OPTIONS: LinkRunOptions = { checkedAt: '2026-11-20', concurrency: 4, perHost: 1, hostIntervalMs: 0, timeoutMs: 2000, retries: 0, userAgent: 'hra-test', extractConcurrency: 1 };

function runDeps(dispatcher: LinkRunDeps['dispatcher'], viaProxy: boolean, now: () => number) {
  const recorded: LinkCheck[] = [];
  const deps: LinkRunDeps = {
    dispatcher, viaProxy, record: (check) => recorded.push(check),
    recordQuote: () => assert.fail('no quote is due in these runs'),
    extract: () => assert.fail('no page is read in these runs'),
    timers: { now, setTimeout: (callback, ms) => setTimeout(callback, ms) },
    wallNow: () => Date.now(), random: () => 0.5, progress: () => {}, residentBytes: () => 0,
  };
  return { deps, recorded };
}
const targets = (urls: string[]) => ({ urls, cited: urls.length, fresh: 0, quotes: { due: new Map(), quotes: 0, fresh: 0 }, wholePages: new Set<string>(), previous: new Map(), uncited: [] });

describe('checkCorpusLinks, without a network', () => {
  it('records nothing and stops when the resolver cannot answer for any host', async () => {
    const noResolver = async (hostname: string) => {
      throw Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), { code: 'EAI_AGAIN', hostname });
    };
    const connections = createLinkDispatcher({ proxy: undefined, concurrency: 4, perHost: 1, policy: { allowPrivateAddresses: false }, resolve: noResolver });
    const { deps, recorded } = runDeps(connections.dispatcher, false, () => performance.now());
    try {
      const urls = Array.from({ length: 30 }, (_, i) => `http://site${i}.test/program`);
      const result = await checkCorpusLinks(targets(urls), OPTIONS, deps);
      assert.ok(result.stopped instanceof NetworkUnavailable);
      assert.equal(result.stopped.phase, 'first-window');
      assert.match(result.stopped.message, /^27 of the first 27 attempts \(27 hosts\) never reached their host \(last: dns: getaddrinfo EAI_AGAIN site\d+\.test\)$/);
      assert.deepEqual(recorded, []);
      assert.equal(result.tally.checked, 0);
    } finally {
      await connections.destroy();
    }
  });

  it('stops when the network dies mid-run, keeping the attempts recorded before and none after', async () => {
    const proxy = await startBadGatewayProxy({ down: false });
    let skew = 0;
    let upRequests = 0;
    proxy.onRequest = () => {
      // Healthy for 120 requests (60 URLs: HEAD then GET), then no way out; each failure "takes" 5 s.
      if (proxy.down) skew += 5_000;
      else if ((upRequests += 1) === 120) proxy.down = true;
    };
    const connections = createLinkDispatcher({ proxy: proxy.proxyUrl, concurrency: 4, perHost: 1, policy: { allowPrivateAddresses: false } });
    const { deps, recorded } = runDeps(connections.dispatcher, true, () => performance.now() + skew);
    try {
      const urls = Array.from({ length: 200 }, (_, i) => `http://site${String(i).padStart(3, '0')}.test/program`);
      const result = await checkCorpusLinks(targets(urls), OPTIONS, deps);
      assert.ok(result.stopped instanceof NetworkUnavailable, 'stopped by the guard');
      assert.equal(result.stopped.phase, 'mid-run');
      assert.match(result.stopped.message, /^every attempt for \d+ s \(\d+ hosts\) failed to reach its host \(last: status 502; after 0 retries\)$/);
      assert.ok(recorded.length >= 55 && recorded.length <= 60, `${recorded.length} recorded`);
      assert.ok(recorded.every((check) => check.outcome === 'live'), 'no 502 was recorded');
      assert.equal(result.tally.checked, recorded.length);
      assert.ok(proxy.seen.length < 2 * urls.length, 'the rest of the URLs were not tried');
    } finally {
      await connections.destroy();
      await proxy.close();
    }
  });

  it('does not stop for a way out lost for a moment at the start: every URL is checked anew, with its retries, and recorded once', async () => {
    const proxy = await startBadGatewayProxy({ down: true });
    // Out for 1.5 s: longer than the retries at --host-interval-ms 0 take (0.3-0.6 s), shorter than the
    // confirmation's wait (CONFIRM_AFTER_MS).
    const outage = setTimeout(() => {
      proxy.down = false;
    }, 1500);
    const connections = createLinkDispatcher({ proxy: proxy.proxyUrl, concurrency: 4, perHost: 1, policy: { allowPrivateAddresses: false } });
    const { deps, recorded } = runDeps(connections.dispatcher, true, () => performance.now());
    try {
      const urls = Array.from({ length: 30 }, (_, i) => `http://site${i}.test/program`);
      const result = await checkCorpusLinks(targets(urls), { ...OPTIONS, retries: 2 }, deps);
      assert.equal(result.stopped, undefined);
      assert.deepEqual(recorded.map((check) => `${check.url} ${check.outcome}`).sort(), urls.map((url) => `${url} live`).sort());
      assert.ok(proxy.seen.some((seen) => seen.endsWith(' down')), 'the outage was seen');
    } finally {
      clearTimeout(outage);
      await connections.destroy();
      await proxy.close();
    }
  });
});
