/** One attempt's request logic, against scripted answers (the CLI tests run the same through a real proxy). */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkLink, MAX_REDIRECTS, type CheckLinkDeps } from '../../../build/links/check-link.ts';
import { RequestFailure } from '../../../build/links/request-failure.ts';
import type { SentResponse } from '../../../build/links/send-request.ts';

type Answer = SentResponse | RequestFailure;
const html = (status: number, headers: SentResponse['headers'] = {}): SentResponse => ({
  status, headers: { 'content-type': 'text/html', ...headers }, body: '<title>Roof Grant</title><h1>Roof Grant</h1>',
});
const moved = (location: string, status = 301): SentResponse => ({ status, headers: { location }, body: undefined });

/** Answers `METHOD url` from a script (the last answer repeats); records every request and deferral. */
function scripted(script: Record<string, Answer[]>, overrides: Partial<CheckLinkDeps> = {}) {
  const sent: string[] = [];
  const deferred: Array<[string, number]> = [];
  const deps: CheckLinkDeps = {
    async send(url, method, readBody) {
      const key = `${method} ${url}`;
      sent.push(key);
      assert.equal(readBody, method === 'GET' ? 'prefix' : 'none', 'bodies are read on GET only');
      const answers = script[key];
      if (!answers) throw new Error(`unscripted request ${key}`);
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      if (answer instanceof RequestFailure) throw answer;
      return answer as SentResponse;
    },
    deferHost: (host, until) => deferred.push([host, until]),
    now: () => 1000,
    wallNow: () => Date.parse('2026-11-20T06:00:00Z'),
    random: () => 0.5,
    retries: 2,
    backoffBaseMs: 100,
    retryAfterCapMs: 60_000,
    ...overrides,
  };
  return { deps, sent, deferred };
}

const url = 'http://a.test/roof';

describe('checkLink', () => {
  it('asks HEAD, then GET for an HTML page so the soft-404 rules can read it', async () => {
    const { deps, sent } = scripted({ [`HEAD ${url}`]: [html(200)], [`GET ${url}`]: [html(200)] });
    assert.deepEqual(await checkLink(url, deps), { outcome: 'live', httpStatus: 200, pageClass: 'program', reason: 'status 200' });
    assert.deepEqual(sent, [`HEAD ${url}`, `GET ${url}`]);
  });

  it('rests the verdict on the final response\'s archived record: the last hop, the GET after HEAD, the redirect of a loop', async () => {
    const archived = (id: string) => ({ responseRecordId: `<urn:uuid:${id}>`, requestRecordId: '<urn:uuid:r>', responseType: 'response' as const, payloadSha256: id.repeat(64).slice(0, 64), file: 'f' });
    const with_ = (response: SentResponse, id: string): SentResponse => ({ ...response, archived: archived(id) });
    const next = 'http://a.test/next';
    const hops = scripted({ [`HEAD ${url}`]: [with_(moved(next), '1')], [`HEAD ${next}`]: [with_(html(200), '2')], [`GET ${next}`]: [with_(html(200), '3')] });
    assert.equal((await checkLink(url, hops.deps)).archived?.responseRecordId, '<urn:uuid:3>');
    const loop = scripted({ [`HEAD ${url}`]: [with_(moved(next), '4')], [`HEAD ${next}`]: [with_(moved(url), '5')] });
    const verdict = await checkLink(url, loop.deps);
    assert.deepEqual([verdict.outcome, verdict.archived?.responseRecordId], ['inconclusive', '<urn:uuid:5>']);
    const none = scripted({ [`HEAD ${url}`]: [new RequestFailure('tls', 'certificate has expired')] });
    assert.equal((await checkLink(url, none.deps)).archived, undefined);
  });

  it('settles a non-HTML 2xx with HEAD alone', async () => {
    const { deps, sent } = scripted({ [`HEAD ${url}`]: [{ status: 200, headers: { 'content-type': 'application/pdf' }, body: undefined }] });
    assert.equal((await checkLink(url, deps)).outcome, 'live');
    assert.deepEqual(sent, [`HEAD ${url}`]);
  });

  for (const status of [405, 501, 404, 400]) {
    it(`falls back to GET when HEAD answers ${status}`, async () => {
      const { deps, sent } = scripted({ [`HEAD ${url}`]: [html(status)], [`GET ${url}`]: [html(200)] });
      assert.equal((await checkLink(url, deps)).outcome, 'live');
      assert.deepEqual(sent, [`HEAD ${url}`, `GET ${url}`]);
    });
  }

  it('follows redirects hop by hop, relative locations included, and classifies the last answer', async () => {
    const { deps, sent } = scripted({
      [`HEAD ${url}`]: [moved('/housing/')],
      'HEAD http://a.test/housing/': [moved('https://b.test/x#top', 308)],
      'HEAD https://b.test/x': [html(200)],
      'GET https://b.test/x': [html(200)],
    });
    assert.deepEqual(await checkLink(url, deps), { outcome: 'live', httpStatus: 200, pageClass: 'program', reason: 'status 200' });
    assert.deepEqual(sent, [`HEAD ${url}`, 'HEAD http://a.test/housing/', 'HEAD https://b.test/x', 'GET https://b.test/x']);
  });

  it(`follows ${MAX_REDIRECTS} redirects and calls one more inconclusive`, async () => {
    const chain = (length: number) => {
      const script: Record<string, Answer[]> = {};
      for (let i = 0; i < length; i += 1) script[`HEAD http://a.test/${i}`] = [moved(`/${i + 1}`, 302)];
      script[`HEAD http://a.test/${length}`] = [{ status: 200, headers: { 'content-type': 'image/png' }, body: undefined }];
      return script;
    };
    assert.equal((await checkLink('http://a.test/0', scripted(chain(MAX_REDIRECTS)).deps)).outcome, 'live');
    const tooLong = await checkLink('http://a.test/0', scripted(chain(MAX_REDIRECTS + 1)).deps);
    assert.deepEqual(tooLong, { outcome: 'inconclusive', httpStatus: 302, reason: `more than ${MAX_REDIRECTS} redirects` });
  });

  it('calls a redirect loop inconclusive at the first repeated URL', async () => {
    const { deps, sent } = scripted({ [`HEAD ${url}`]: [moved('/other')], 'HEAD http://a.test/other': [moved('/roof')] });
    assert.deepEqual(await checkLink(url, deps), { outcome: 'inconclusive', httpStatus: 301, reason: `redirect loop at ${url}` });
    assert.equal(sent.length, 2);
  });

  it('calls a redirect to a non-HTTP location inconclusive', async () => {
    const { deps } = scripted({ [`HEAD ${url}`]: [moved('mailto:housing@a.test')] });
    assert.equal((await checkLink(url, deps)).outcome, 'inconclusive');
  });

  it('retries a 5xx with growing, jittered backoff that holds the host, then succeeds', async () => {
    const { deps, sent, deferred } = scripted({ [`HEAD ${url}`]: [html(502), html(500), html(200)], [`GET ${url}`]: [html(200)] });
    assert.equal((await checkLink(url, deps)).outcome, 'live');
    assert.deepEqual(sent, [`HEAD ${url}`, `HEAD ${url}`, `HEAD ${url}`, `GET ${url}`]);
    // random() = 0.5: retry 1 waits 100 + 50, retry 2 waits 200 + 100, from now() = 1000.
    assert.deepEqual(deferred, [['a.test', 1150], ['a.test', 1300]]);
  });

  it('gives up after --retries and records the last status', async () => {
    const { deps, sent } = scripted({ [`HEAD ${url}`]: [html(503)] }, { retries: 1 });
    const verdict = await checkLink(url, deps);
    assert.equal(verdict.outcome, 'inconclusive');
    assert.equal(verdict.httpStatus, 503);
    assert.match(verdict.reason, /after 1 retry/);
    assert.equal(sent.length, 2);
  });

  it('retries timeouts and connection failures, and records no status when they persist', async () => {
    const { deps, sent } = scripted({ [`HEAD ${url}`]: [new RequestFailure('timeout', 'slow'), new RequestFailure('connection', 'reset')] });
    assert.deepEqual(await checkLink(url, deps), { outcome: 'inconclusive', httpStatus: null, reason: 'connection: reset' });
    assert.equal(sent.length, 3);
  });

  it('does not retry a TLS failure or a 501 on GET', async () => {
    const tls = scripted({ [`HEAD ${url}`]: [new RequestFailure('tls', 'certificate has expired')] });
    assert.equal((await checkLink(url, tls.deps)).outcome, 'inconclusive');
    assert.equal(tls.sent.length, 1);
    const notImplemented = scripted({ [`HEAD ${url}`]: [html(501)], [`GET ${url}`]: [html(501)] });
    assert.equal((await checkLink(url, notImplemented.deps)).httpStatus, 501);
    assert.equal(notImplemented.sent.length, 2);
  });

  it('waits as long as Retry-After says (seconds or HTTP-date), holding the whole host', async () => {
    const seconds = scripted({ [`HEAD ${url}`]: [html(429, { 'retry-after': '7' }), html(200)], [`GET ${url}`]: [html(200)] });
    assert.equal((await checkLink(url, seconds.deps)).outcome, 'live');
    assert.deepEqual(seconds.deferred, [['a.test', 1000 + 7000]]);
    const date = scripted({ [`HEAD ${url}`]: [html(503, { 'retry-after': 'Fri, 20 Nov 2026 06:00:30 GMT' }), html(200)], [`GET ${url}`]: [html(200)] });
    assert.equal((await checkLink(url, date.deps)).outcome, 'live');
    assert.deepEqual(date.deferred, [['a.test', 1000 + 30_000]]);
  });

  it('does not wait for a Retry-After beyond the cap: inconclusive at once', async () => {
    const { deps, sent, deferred } = scripted({ [`HEAD ${url}`]: [html(429, { 'retry-after': '3600' })] });
    const verdict = await checkLink(url, deps);
    assert.deepEqual([verdict.outcome, verdict.httpStatus], ['inconclusive', 429]);
    assert.match(verdict.reason, /Retry-After 3600 s is beyond the 60 s cap/);
    assert.deepEqual([sent.length, deferred.length], [1, 0]);
  });

  it('lets a refused proxy stop the run instead of recording the site', async () => {
    const { deps } = scripted({ [`HEAD ${url}`]: [new RequestFailure('proxy-refused', 'connect ECONNREFUSED 127.0.0.1:9')] });
    await assert.rejects(checkLink(url, deps), (error: unknown) => error instanceof RequestFailure && error.kind === 'proxy-refused');
  });
});

describe('checkLink, refused destinations', () => {
  const url = 'http://a.test/program';

  it('names a refused redirect as a redirect, and a refused cited URL as itself; neither is retried', async () => {
    const hop = scripted({
      [`HEAD ${url}`]: [moved('http://127.0.0.1:6379/', 302)],
      'HEAD http://127.0.0.1:6379/': [new RequestFailure('refused', 'loopback address 127.0.0.1')],
    });
    assert.deepEqual(await checkLink(url, hop.deps), { outcome: 'inconclusive', httpStatus: null, reason: 'refused: redirect to loopback address 127.0.0.1', refused: true });
    assert.equal(hop.sent.length, 2);
    const cited = scripted({ [`HEAD ${url}`]: [new RequestFailure('refused', 'a.test resolves to private address 10.0.0.8')] });
    assert.deepEqual(await checkLink(url, cited.deps), { outcome: 'inconclusive', httpStatus: null, reason: 'refused: a.test resolves to private address 10.0.0.8', refused: true });
    assert.equal(cited.sent.length, 1);
  });

  it('refuses a redirect to another scheme, naming it, without requesting it', async () => {
    for (const [location, scheme] of [['ftp://files.a.test/flyer.pdf', 'ftp:'], ['gopher://127.0.0.1:6379/_INFO', 'gopher:'], ['file:///etc/passwd', 'file:']]) {
      const { deps, sent } = scripted({ [`HEAD ${url}`]: [moved(location as string, 302)] });
      assert.deepEqual(await checkLink(url, deps), { outcome: 'inconclusive', httpStatus: 302, reason: `refused: redirect to ${scheme} URL (only http and https are fetched)`, refused: true });
      assert.equal(sent.length, 1);
    }
  });

  it('marks DNS and connect failures as unreachable, for the no-network guard', async () => {
    const { deps } = scripted({ [`HEAD ${url}`]: [new RequestFailure('dns', 'getaddrinfo EAI_AGAIN a.test')] }, { retries: 0 });
    assert.deepEqual(await checkLink(url, deps), { outcome: 'inconclusive', httpStatus: null, reason: 'dns: getaddrinfo EAI_AGAIN a.test', unreachable: true });
  });

  it('marks an unreachable failure that retrying cannot change as lasting (the proxy\'s own 407)', async () => {
    const { deps, sent } = scripted({ [`HEAD ${url}`]: [new RequestFailure('proxy', 'the proxy demands credentials (407 Proxy Authentication Required)', true)] });
    assert.deepEqual(await checkLink(url, deps), {
      outcome: 'inconclusive', httpStatus: null, reason: 'proxy: the proxy demands credentials (407 Proxy Authentication Required)', unreachable: true, lasting: true,
    });
    assert.equal(sent.length, 1);
  });

  it('ends an attempt at its first unreachable try, marked unretried, when skipRetries says so (the network in doubt)', async () => {
    const asked: Array<RequestFailure | number> = [];
    const skipRetries = (answer: RequestFailure | number) => {
      asked.push(answer);
      return typeof answer === 'number' ? answer === 502 : answer.unreachable;
    };
    const failing = scripted({ [`HEAD ${url}`]: [new RequestFailure('dns', 'getaddrinfo ENOTFOUND a.test')] }, { skipRetries });
    assert.deepEqual(await checkLink(url, failing.deps), { outcome: 'inconclusive', httpStatus: null, reason: 'dns: getaddrinfo ENOTFOUND a.test', unreachable: true, unretried: true });
    assert.deepEqual(failing.deferred, [], 'no backoff waited');
    const proxied = scripted({ [`HEAD ${url}`]: [html(502)] }, { skipRetries });
    assert.deepEqual(await checkLink(url, proxied.deps), { outcome: 'inconclusive', httpStatus: 502, reason: 'status 502', unretried: true });
    assert.equal(proxied.sent.length, 1);
    // A try that reached its host is retried as ever; so is the last try, which ends the attempt anyway.
    const reached = scripted({ [`HEAD ${url}`]: [html(500), html(500), html(500)] }, { skipRetries });
    assert.equal((await checkLink(url, reached.deps)).unretried, undefined);
    assert.equal(reached.sent.length, 3);
    const lastTry = scripted({ [`HEAD ${url}`]: [new RequestFailure('dns', 'getaddrinfo ENOTFOUND a.test')] }, { skipRetries, retries: 0 });
    assert.equal((await checkLink(url, lastTry.deps)).unretried, undefined);
  });
});

describe('checkLink asked for the page (quote checks)', () => {
  const pdf: SentResponse = {
    status: 200, headers: { 'content-type': 'application/pdf' }, body: undefined, page: { kind: 'read', bytes: new Uint8Array([0x25]), complete: true },
  };
  it('starts with GET, reads the whole page, and names the final URL after redirects', async () => {
    const sent: Array<[string, string]> = [];
    const { deps } = scripted({});
    const answers: Record<string, SentResponse> = { [`GET ${url}`]: moved('/flyer.pdf', 302), 'GET http://a.test/flyer.pdf': pdf };
    deps.send = async (target, method, read) => {
      sent.push([`${method} ${target}`, read]);
      return answers[`${method} ${target}`] as SentResponse;
    };
    const verdict = await checkLink(url, deps, { wantPage: true });
    assert.deepEqual(sent, [[`GET ${url}`, 'page'], ['GET http://a.test/flyer.pdf', 'page']], 'no HEAD: it could not give the body');
    assert.deepEqual(verdict, { outcome: 'live', httpStatus: 200, pageClass: 'program', reason: 'status 200', finalUrl: 'http://a.test/flyer.pdf', contentType: 'application/pdf', page: pdf.page });
  });
});

describe('checkLink with getFirst (the last attempt read an HTML page)', () => {
  it('asks GET at once, reading the prefix, and gives the verdict HEAD first gives', async () => {
    const script = () => ({ [`HEAD ${url}`]: [html(200)], [`GET ${url}`]: [html(200)] });
    const headFirst = scripted(script());
    const getFirst = scripted(script());
    assert.deepEqual(await checkLink(url, getFirst.deps, { getFirst: true }), await checkLink(url, headFirst.deps));
    assert.deepEqual(getFirst.sent, [`GET ${url}`]);
    assert.deepEqual(headFirst.sent, [`HEAD ${url}`, `GET ${url}`]);
  });

  it('stays on GET across redirects, and a soft 404 is still dead', async () => {
    const next = 'http://a.test/missing';
    const { deps, sent } = scripted({ [`GET ${url}`]: [moved(next)], [`GET ${next}`]: [{ ...html(200), body: '<title>Page not found</title>' }] });
    assert.equal((await checkLink(url, deps, { getFirst: true })).outcome, 'dead');
    assert.deepEqual(sent, [`GET ${url}`, `GET ${next}`]);
  });
});
