/**
 * Graceful shutdown of the API's HTTP server. Draining, in order: readiness fails (`draining` turns true,
 * `/readyz` answers 503), the listener closes (new connections are refused), every response from then on
 * carries `Connection: close` (so a keep-alive client learns to go elsewhere without losing a request),
 * idle keep-alive connections are closed after a short grace, and the drain ends when the last
 * connection has closed, or at the deadline, when whatever is left is cut off.
 */
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/** How a drain ended. */
export interface DrainOutcome {
  /** True when every connection closed by itself before the deadline. */
  drained: boolean;
  /** Requests still in flight when the deadline cut them off. */
  abandoned: number;
}

/** Options of ServerDrain.drain. */
export interface DrainOptions {
  /**
   * How long a keep-alive connection that is idle when draining starts may still deliver one more request
   * (answered with `Connection: close`) before it is closed. Closing it at once would race a request the
   * client is writing at that very moment, which the client would see as a reset.
   */
  idleGraceMs: number;
  /** When the drain gives up on in-flight requests and closes every connection. */
  deadlineMs: number;
}

/** The drain handle of one server. */
export interface ServerDrain {
  /** True from the moment draining starts; readiness reports it. */
  readonly draining: boolean;
  /** Requests being served right now. */
  readonly inFlight: number;
  /** Starts draining (once; later calls return the same outcome). */
  drain(options: DrainOptions): Promise<DrainOutcome>;
}

/** Tracks the requests of `server` so that it can be drained; call before the server receives requests. */
export function trackServerDrain(server: Server): ServerDrain {
  const responses = new Set<ServerResponse>();
  let draining = false;
  let idleClosed = false;
  let outcome: Promise<DrainOutcome> | undefined;

  // One listener for every response, not a closure (and `once` wrapper) made per request: a response
  // closes once, and `this` is the response.
  function onResponseClose(this: ServerResponse): void {
    responses.delete(this);
    // A response whose headers left before the drain began could not say `Connection: close`;
    // once the grace is over its socket is closed as soon as it turns idle.
    if (idleClosed) setImmediate(() => server.closeIdleConnections());
  }

  // Prepended, so the header is set before the app's handler can start writing.
  server.prependListener('request', (_request, response: ServerResponse) => {
    responses.add(response);
    if (draining) response.setHeader('Connection', 'close');
    response.on('close', onResponseClose);
  });

  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return responses.size;
    },
    drain(options) {
      outcome ??= new Promise<DrainOutcome>((resolve) => {
        draining = true;
        for (const response of responses) if (!response.headersSent) response.setHeader('Connection', 'close');
        let idleTimer: NodeJS.Timeout | undefined;
        let deadline: NodeJS.Timeout | undefined;
        let settled = false;
        const finish = (drained: boolean) => {
          if (settled) return;
          settled = true;
          clearTimeout(idleTimer);
          clearTimeout(deadline);
          const abandoned = responses.size;
          if (!drained) server.closeAllConnections();
          resolve({ drained, abandoned });
        };
        // net.Server's close stops accepting and calls back once every connection has ended. http.Server's
        // own close() would also destroy idle keep-alive sockets at once, racing in-transit requests.
        NetServer.prototype.close.call(server, () => finish(true));
        idleTimer = setTimeout(() => {
          idleClosed = true;
          server.closeIdleConnections();
        }, options.idleGraceMs);
        deadline = setTimeout(() => finish(false), options.deadlineMs);
      });
      return outcome;
    },
  };
}
