/**
 * A loopback HTTP proxy for link-check tests, the links benchmark and `hra rehearse`. It answers every request itself,
 * for any host name, with one behaviour per path, and never opens a connection anywhere: absolute-form
 * requests (`GET http://agency-a.test/missing`) are answered directly, and a CONNECT tunnel is answered
 * by this same server, over TLS when a certificate is given. It records, per `Host`, how many requests
 * were in flight at once and when each started, so tests can check the checker's politeness.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { gzipSync } from 'node:zlib';

/** Options of startLinkFixture. */
export interface LinkFixtureOptions {
  /** Added before every answer (the benchmark's ~20 ms site). */
  delayMs?: number;
  /** Certificate for CONNECT tunnels; without one a tunnel speaks plain HTTP, so TLS fails. */
  tls?: { key: string; cert: string };
  /** Keep the per-request log (tests); the benchmark keeps only the per-host figures. */
  log?: boolean;
  /**
   * A proxy that demands credentials: requests and CONNECTs whose Proxy-Authorization is not exactly this
   * (`Basic <base64 of user:password>`) are answered 407 by the proxy itself.
   */
  proxyAuthorization?: string;
  /** Answers before the built-in behaviours: returns true when it answered (the quote-check pages). */
  answer?: (request: IncomingMessage, response: ServerResponse, target: URL) => boolean;
}

/** What the fixture saw of one host. */
export interface FixtureHostStats {
  requests: number;
  inFlight: number;
  maxInFlight: number;
  /** performance.now() at each request's arrival, in order. */
  starts: number[];
}

/** One request the fixture answered (or left hanging). */
export interface FixtureRequest {
  method: string;
  host: string;
  path: string;
  userAgent: string | undefined;
  /** True when it arrived inside a CONNECT tunnel. */
  tunnelled: boolean;
}

/** A running fixture. */
export interface LinkFixture {
  /** `http://127.0.0.1:<port>`: the value of `--proxy`. */
  proxyUrl: string;
  hosts: Map<string, FixtureHostStats>;
  requests: FixtureRequest[];
  /** CONNECT requests received, by target (`host:port`). */
  tunnels: string[];
  /** Requests and CONNECTs answered 407 for want of credentials (`proxyAuthorization`). */
  authRefused: number;
  close(): Promise<void>;
}

const PROGRAM_PAGE = '<!doctype html><html><head><title>Home Repair Grant | Agency</title></head><body><h1>Home Repair Grant</h1><p>Apply now.</p></body></html>';
const page = (title: string, heading: string) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${heading}</h1></body></html>`;

/** Starts the fixture on an ephemeral loopback port. */
export async function startLinkFixture(options: LinkFixtureOptions = {}): Promise<LinkFixture> {
  const hosts = new Map<string, FixtureHostStats>();
  const requests: FixtureRequest[] = [];
  const tunnels: string[] = [];
  const seen = new Map<string, number>();
  const sockets = new Set<Socket>();

  let authRefused = 0;
  // Only the proxy asks for credentials: a request inside a tunnel is the site's.
  const lacksCredentials = (request: IncomingMessage) => options.proxyAuthorization !== undefined && request.headers['proxy-authorization'] !== options.proxyAuthorization;
  const server = createServer((request, response) => {
    const tunnelled = request.socket instanceof TLSSocket || (request.socket as Socket & { tunnelled?: boolean }).tunnelled === true;
    if (!tunnelled && lacksCredentials(request)) {
      authRefused += 1;
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="fixture"', 'content-type': 'text/html' });
      return void response.end('<h1>Proxy Authentication Required</h1>');
    }
    const target = new URL(request.url?.startsWith('http') ? request.url : `http://${request.headers.host ?? 'unknown'}${request.url ?? '/'}`);
    const host = target.host;
    let stats = hosts.get(host);
    if (!stats) {
      stats = { requests: 0, inFlight: 0, maxInFlight: 0, starts: [] };
      hosts.set(host, stats);
    }
    const counted = stats;
    counted.requests += 1;
    counted.inFlight += 1;
    counted.maxInFlight = Math.max(counted.maxInFlight, counted.inFlight);
    counted.starts.push(performance.now());
    // 'close' fires when the answer is complete and when the client gives up, whichever comes first.
    response.once('close', () => (counted.inFlight -= 1));
    if (options.log !== false) {
      requests.push({ method: request.method ?? '', host, path: target.pathname, userAgent: request.headers['user-agent'], tunnelled });
    }
    const key = `${host} ${target.pathname}`;
    const nth = (seen.get(key) ?? 0) + 1;
    seen.set(key, nth);
    const answer = () => {
      if (options.answer?.(request, response, target) !== true) behave(request, response, target, nth);
    };
    if (options.delayMs) setTimeout(answer, options.delayMs);
    else answer();
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('connect', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    if (lacksCredentials(request)) {
      authRefused += 1;
      return void socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="fixture"\r\ncontent-length: 0\r\n\r\n');
    }
    tunnels.push(request.url ?? '');
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    // The tunnel's far end is this server again: nothing leaves the machine.
    const inner = options.tls ? new TLSSocket(socket, { isServer: true, key: options.tls.key, cert: options.tls.cert }) : socket;
    (inner as Socket & { tunnelled?: boolean }).tunnelled = true;
    inner.on('error', () => inner.destroy());
    server.emit('connection', inner);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    proxyUrl: `http://127.0.0.1:${port}`,
    hosts,
    requests,
    tunnels,
    get authRefused() {
      return authRefused;
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** One behaviour per path; `nth` counts requests to this host and path, from 1. */
function behave(request: IncomingMessage, response: ServerResponse, target: URL, nth: number): void {
  const path = target.pathname;
  const method = request.method ?? 'GET';
  const html = (status: number, body: string, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    response.end(method === 'HEAD' ? undefined : body);
  };
  const redirect = (status: number, location: string) => {
    response.writeHead(status, { location });
    response.end();
  };
  const status = (code: number, headers: Record<string, string> = {}) => html(code, page(`Error ${code}`, `Error ${code}`), headers);

  const redirectChain = /^\/redirect\/(\d+)\/(.*)$/.exec(path);
  if (redirectChain) {
    const left = Number(redirectChain[1]);
    return redirect(302, left > 1 ? `/redirect/${left - 1}/${redirectChain[2]}` : `/${redirectChain[2]}`);
  }
  const toHost = /^\/to-host\/([^/]+)\/(.*)$/.exec(path);
  // Percent-decoded, so a cited URL (no brackets allowed in its path) can redirect to an IPv6 literal.
  if (toHost) return redirect(302, `http://${decodeURIComponent(toHost[1] as string)}/${toHost[2]}`);
  const retryAfter = /^\/(retry-after|unavailable)\/(\d+)$/.exec(path);
  if (retryAfter) {
    if (nth === 1) return status(retryAfter[1] === 'retry-after' ? 429 : 503, { 'retry-after': retryAfter[2] as string });
    return html(200, PROGRAM_PAGE);
  }
  const slow = /^\/slow\/(\d+)\//.exec(path);
  if (slow) {
    setTimeout(() => html(200, PROGRAM_PAGE), Number(slow[1]));
    return;
  }

  switch (path) {
    case '/': return html(200, page('City Housing Department', 'Welcome'));
    case '/section/': return html(200, page('Housing Programs', 'Housing Programs'));
    case '/section/old-program': return redirect(301, '/section/');
    case '/missing': return status(404);
    case '/gone': return status(410);
    case '/unauthorized': return status(401);
    case '/forbidden': return status(403);
    case '/teapot': return status(418);
    case '/soft-404': return html(200, page('Page Not Found | City of Alpha', 'Sorry'));
    case '/soft-404-heading': return html(200, page('City of Alpha', '404'));
    case '/soft-404-spanish': return html(200, page('Ciudad de Alpha', 'Página no encontrada'));
    case '/soft-404-gzip': {
      response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      return void response.end(method === 'HEAD' ? undefined : gzipSync(page('Page not found', 'Oops')));
    }
    case '/form-404-b': return html(200, page('Form 404-B: Repair Application', 'Form 404-B'));
    case '/not-found-route': return redirect(302, '/404.html');
    case '/404.html': return html(200, page('City of Alpha', 'We moved things around'));
    case '/bot-wall': return html(403, page('Just a moment...', 'Checking your browser'), { 'cf-mitigated': 'challenge' });
    case '/challenge-200': return html(200, page('Just a moment...', 'Checking your browser'));
    case '/waf-challenge': return html(202, '', { 'x-amzn-waf-action': 'challenge' });
    case '/loop-a': return redirect(301, '/loop-b');
    case '/loop-b': return redirect(301, '/loop-a');
    case '/to-root': return redirect(301, '/');
    case '/no-location': return status(302);
    case '/flaky': return nth === 1 ? status(500) : html(200, PROGRAM_PAGE);
    case '/flaky-502': return nth === 1 ? status(502) : html(200, PROGRAM_PAGE);
    case '/always-500': return status(500);
    case '/always-503': return status(503);
    case '/head-405': return method === 'HEAD' ? status(405, { allow: 'GET' }) : html(200, PROGRAM_PAGE);
    case '/head-501': return method === 'HEAD' ? status(501) : html(200, PROGRAM_PAGE);
    case '/head-404': return method === 'HEAD' ? status(404) : html(200, PROGRAM_PAGE);
    case '/pdf': {
      response.writeHead(200, { 'content-type': 'application/pdf' });
      return void response.end(method === 'HEAD' ? undefined : '%PDF-1.4\n');
    }
    case '/stall': return; // never answers; the client's deadline ends it
    case '/reset': return void request.socket.destroy();
    default: return html(200, PROGRAM_PAGE);
  }
}
