/**
 * Limits of the API's HTTP server against hostile clients, and JSON errors for the requests Node refuses
 * before Koa sees them (malformed HTTP, oversized headers, timeouts, CONNECT), so every refusal a client
 * gets is a JSON body with a `code`, an `X-Request-ID` and `X-API-Version`, like every other error.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_VERSION } from '../../build/contract/api-version.ts';
import type { GatewayLogger } from '../observability/gateway-logger.ts';
import { ApiError } from './api-error.ts';
import { headersTooLarge, MAX_HEADER_BLOCK_BYTES } from './refuse-large-header-blocks.ts';
import { NOSNIFF_HEADER } from './nosniff-header.ts';
import { MAX_URL_LENGTH } from './request-guards.ts';
import { requestIdFor } from './request-id.ts';
import { JSON_CONTENT_TYPE } from '../pipeline/json-reply.ts';

/**
 * Options for node:http createServer: header size and the time a client may take to send a request.
 * A missing `Host` is refused by the app (request-guards.ts), as JSON, instead of by Node, bodiless.
 * Node counts `maxHeaderSize` without each line's `: ` and CRLF, so it is only the parser's memory bound;
 * refuse-large-header-blocks.ts holds the documented 16 KiB as sent. Node checks both timeouts only every
 * `connectionsCheckingInterval` (30 s by default, which let a 10 s header timeout fire at 16-36 s), so
 * the check runs twice a second: headers 10 s late get their 408 within 10.5 s.
 */
export const SERVER_LIMITS = {
  maxHeaderSize: MAX_HEADER_BLOCK_BYTES,
  requestTimeout: 30_000,
  headersTimeout: 10_000,
  connectionsCheckingInterval: 500,
  keepAliveTimeout: 5_000,
  requireHostHeader: false,
} as const satisfies ServerOptions;

/**
 * Requests served on one connection before it is closed, so no client pins a socket forever: the last
 * response says `Connection: close`. (A client pipelining past it anyway gets Node's bodiless 503.)
 */
export const MAX_REQUESTS_PER_SOCKET = 1_000;

/** Applies the per-socket request limit and answers what Node refuses with a JSON error. */
export function hardenServer(server: Server, log?: GatewayLogger): void {
  server.maxRequestsPerSocket = MAX_REQUESTS_PER_SOCKET;
  // Node keeps only the first 2,000 headers in `request.headers` and drops the rest silently (an
  // X-Api-Key past them would vanish); 0 keeps them all. The 16 KiB bound limits how many there can be.
  server.maxHeadersCount = 0;
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    log?.debug({ code: error.code }, 'client error');
    // Like Node's own handler: reply only when no response has started on this socket.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code !== 'ECONNRESET' && socket.writable && (inFlight === undefined || inFlight === null || !inFlight.headersSent)) {
      // A HEAD response has no body; a client reading one would take the body for the next response.
      const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
      socket.end(rawErrorResponse(clientErrorOf(error), randomUUID(), { head }), () => socket.destroy());
    } else {
      socket.destroy();
    }
  });
  // RFC 9110 10.1.1 lets a server ignore an expectation it does not support; Node would send a bodiless 417.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => server.emit('request', request, response));
  // CONNECT is no request for this API; without a listener Node would drop the connection unanswered.
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const requestId = requestIdFor(request.headers['x-request-id']);
    socket.on('error', () => socket.destroy());
    socket.end(rawErrorResponse(methodNotAllowed(), requestId), () => socket.destroy());
  });
}

function methodNotAllowed(): ApiError {
  return new ApiError(405, 'METHOD_NOT_ALLOWED', 'the API is read-only: only GET and HEAD are allowed', { headers: { Allow: 'GET, HEAD' } });
}

function clientErrorOf(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      if (requestLineLength(error.rawPacket) > MAX_URL_LENGTH) return new ApiError(414, 'URI_TOO_LONG', `the request target is longer than ${MAX_URL_LENGTH} characters`);
      return headersTooLarge();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'REQUEST_TIMEOUT', 'the request was not received in time');
    case 'HPE_INVALID_METHOD':
      return methodNotAllowed();
    default:
      return new ApiError(400, 'MALFORMED_REQUEST', 'the request is not well-formed HTTP');
  }
}

/** Length of the request line in what the parser saw (all of it when no line break arrived). */
function requestLineLength(raw: Buffer | undefined): number {
  if (raw === undefined) return 0;
  const end = raw.indexOf('\r\n');
  return end === -1 ? raw.length : end;
}

/** A whole HTTP/1.1 response, written straight to the socket (there is no response object here). */
function rawErrorResponse(error: ApiError, requestId: string, options: { head?: boolean } = {}): string {
  const body = JSON.stringify(error.toBody());
  const headers: Record<string, string> = {
    'Content-Type': JSON_CONTENT_TYPE,
    'Content-Length': String(Buffer.byteLength(body)),
    'X-API-Version': API_VERSION,
    [NOSNIFF_HEADER[0]]: NOSNIFF_HEADER[1],
    'X-Request-ID': requestId,
    'Cache-Control': 'no-store',
    Connection: 'close',
    ...error.extras.headers,
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n${head}\r\n${options.head ? '' : body}`;
}
