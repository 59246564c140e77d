/** Names why a request got no response, and whether trying again could help. */

/** The kinds of failure the outcome rules distinguish; all of them make an attempt `inconclusive`. */
export type FailureKind = 'timeout' | 'connection' | 'tls' | 'proxy-refused' | 'invalid-url';

/** A request that produced no HTTP response. */
export class RequestFailure extends Error {
  readonly kind: FailureKind;
  /** Timeouts and connection failures may pass; TLS and URL failures will not, so they are not retried. */
  readonly transient: boolean;

  constructor(kind: FailureKind, detail: string) {
    super(`${kind}: ${detail}`);
    this.name = 'RequestFailure';
    this.kind = kind;
    this.transient = kind === 'timeout' || kind === 'connection';
  }
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$|HOSTNAME_MISMATCH$|ERR_SSL)/;
const TIMEOUT_CODE = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/**
 * Turns an error thrown by the HTTP client into a RequestFailure. `viaProxy`: every socket the checker
 * opens then goes to the proxy, so a refused connection means the proxy is down, not the site; the run
 * stops instead of recording the site as inconclusive.
 */
export function describeRequestFailure(error: unknown, context: { viaProxy: boolean; timedOut: boolean }): RequestFailure {
  if (error instanceof RequestFailure) return error;
  if (context.timedOut) return new RequestFailure('timeout', 'no complete answer in time');
  const chain = causes(error);
  const codes = chain.map((one) => (one as { code?: unknown }).code).filter((code): code is string => typeof code === 'string');
  const message = chain.map((one) => (one instanceof Error ? one.message : String(one))).find((text) => text !== '') ?? 'unknown error';
  if (codes.some((code) => TIMEOUT_CODE.has(code))) return new RequestFailure('timeout', message);
  if (context.viaProxy && codes.includes('ECONNREFUSED')) return new RequestFailure('proxy-refused', message);
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
