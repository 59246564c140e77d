/** Names why a request got no response, and whether trying again could help. */

/**
 * The kinds of failure the outcome rules distinguish; all of them make an attempt `inconclusive`. `proxy`:
 * the proxy itself turned the request down (407, or a CONNECT refused other than for want of a way out).
 */
export type FailureKind = 'timeout' | 'connection' | 'dns' | 'tls' | 'proxy-refused' | 'proxy' | 'invalid-url' | 'refused';

/** A request that produced no HTTP response. */
export class RequestFailure extends Error {
  readonly kind: FailureKind;
  /** Timeouts, DNS and connection failures may pass; TLS, URL, policy and proxy-rule failures will not, so they are not retried. */
  readonly transient: boolean;
  /** What went wrong, without the kind. */
  readonly detail: string;
  /**
   * True when the host was never reached: its name did not resolve, or no connection to it (or, through
   * a proxy, no tunnel) opened. The no-network guard counts these (network-guard.ts).
   */
  readonly unreachable: boolean;

  constructor(kind: FailureKind, fullDetail: string, unreachable = kind === 'dns') {
    // A reason is one line of the link-check log and of the report: OpenSSL's text runs on with its file and line.
    const detail = firstLine(fullDetail);
    super(`${kind}: ${detail}`);
    this.name = 'RequestFailure';
    this.kind = kind;
    this.detail = detail;
    this.transient = kind === 'timeout' || kind === 'connection' || kind === 'dns';
    this.unreachable = unreachable;
  }
}

/** `text` up to its first line break, without trailing space; `text` itself when it is one line. */
function firstLine(text: string): string {
  const end = text.search(/[\r\n]/);
  return end === -1 ? text : text.slice(0, end).trimEnd();
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$|HOSTNAME_MISMATCH$|ERR_SSL)/;
const TIMEOUT_CODE = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
// getaddrinfo's answers when a name gives no address: no such name, or no resolver to ask.
const DNS_CODE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA', 'ESERVFAIL']);
// The connection itself did not open: nothing listens, no route, or nothing answered the SYN.
const CONNECT_CODE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);
// A proxy's answer other than 200 to a CONNECT (undici's wording): it always comes from the proxy itself.
const TUNNEL_REFUSED = /Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/;
// Statuses with which a proxy says it found no way to the site; any other refusal is the proxy's own rule.
const NO_WAY_OUT = new Set(['502', '503', '504']);

/** The failure for a proxy's own 407 (Proxy Authentication Required), on CONNECT or a plain request. */
export function proxyAuthFailure(): RequestFailure {
  return new RequestFailure('proxy', 'the proxy demands credentials (407 Proxy Authentication Required)', true);
}

/**
 * Turns an error thrown by the HTTP client into a RequestFailure. `viaProxy`: every socket the checker
 * opens then goes to the proxy, so a refused connection means the proxy is down, not the site; the run
 * stops instead of recording the site as inconclusive.
 */
export function describeRequestFailure(error: unknown, context: { viaProxy: boolean; timedOut: boolean }): RequestFailure {
  if (error instanceof RequestFailure) return error;
  const chain = causes(error);
  const codes = chain.map((one) => (one as { code?: unknown }).code).filter((code): code is string => typeof code === 'string');
  const message = chain.map((one) => (one instanceof Error ? one.message : String(one))).find((text) => text !== '') ?? 'unknown error';
  if (codes.includes('ERR_HRA_DESTINATION_REFUSED')) return new RequestFailure('refused', message);
  if (context.timedOut) return new RequestFailure('timeout', 'no complete answer in time');
  if (codes.some((code) => DNS_CODE.has(code))) return new RequestFailure('dns', message);
  if (codes.some((code) => TIMEOUT_CODE.has(code))) return new RequestFailure('timeout', message, codes.includes('UND_ERR_CONNECT_TIMEOUT'));
  if (context.viaProxy && codes.includes('ECONNREFUSED')) return new RequestFailure('proxy-refused', message);
  const tunnelStatus = chain.map((one) => (one instanceof Error ? TUNNEL_REFUSED.exec(one.message)?.[1] : undefined)).find((status) => status !== undefined);
  if (tunnelStatus === '407') return proxyAuthFailure();
  if (tunnelStatus !== undefined && !NO_WAY_OUT.has(tunnelStatus)) return new RequestFailure('proxy', `the proxy refused the CONNECT tunnel (${tunnelStatus})`, true);
  if (codes.some((code) => CONNECT_CODE.has(code)) || tunnelStatus !== undefined) return new RequestFailure('connection', message, true);
  if (codes.some((code) => TLS_CODE.test(code)) || chain.some((one) => (one as { name?: unknown }).name === 'SecureProxyConnectionError')) {
    return new RequestFailure('tls', message);
  }
  if (codes.includes('ERR_INVALID_URL') || codes.includes('UND_ERR_INVALID_ARG')) return new RequestFailure('invalid-url', message);
  return new RequestFailure('connection', message);
}

/** The error and its `cause`s, outermost first (undici wraps socket errors), at most a few deep. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 5; current = (current as { cause?: unknown }).cause) {
    chain.push(current);
  }
  return chain;
}
