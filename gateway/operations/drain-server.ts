/**
 * Graceful shutdown of the API's HTTP server. Draining, in order: readiness fails (`draining` turns true,
 * `/readyz` answers 503), the listener closes (new connections are refused), every response from then on
 * carries `Connection: close` (so a keep-alive client learns to go elsewhere without losing a request),
 * idle keep-alive connections are closed after a short grace, and the drain ends when the last
 * connection has closed, or at the deadline, when whatever is left is cut off.
 *
 * The responses in flight are tracked by the server's own response class rather than by a `request`
 * listener: a listener prepended to the app's made node copy the listener array at every request, and
 * each response carried a `close` listener and a Set entry. Here a response links itself into a list
 * when node makes it and unlinks when it emits `close`, with no allocation per request. The same two
 * moments tell the connection cap (cap-connections.ts) when a connection has a request in progress.
 */
import { createServer, IncomingMessage, ServerResponse, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { capConnections, type ConnectionCap } from './cap-connections.ts';

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

/** A server made by createDrainableServer, with its drain handle. */
export interface DrainableServer {
  readonly server: Server;
  readonly drain: ServerDrain;
  /** The cap on open connections, which the responses tell when their connection is busy. */
  readonly connections: ConnectionCap;
}

/** The state one server's responses share: the list of those in flight, and whether draining began. */
interface DrainState {
  draining: boolean;
  idleClosed: boolean;
  inFlight: number;
  connections?: ConnectionCap;
  /** Sentinel of a circular doubly-linked list of the responses in flight. */
  readonly ring: { prev: Linked; next: Linked };
  server?: Server;
}

interface Linked {
  prev: Linked;
  next: Linked;
}

/** Creates an HTTP server whose requests are tracked so that it can be drained, holding at most `maxConnections` open. */
export function createDrainableServer(options: ServerOptions, listener: RequestListener, maxConnections = Number.POSITIVE_INFINITY): DrainableServer {
  const ring = {} as { prev: Linked; next: Linked };
  ring.prev = ring;
  ring.next = ring;
  const state: DrainState = { draining: false, idleClosed: false, inFlight: 0, ring };
  const TrackedResponse = trackedResponseClass(state);
  const server = createServer({ ...options, ServerResponse: TrackedResponse as unknown as typeof ServerResponse<IncomingMessage> }, listener);
  state.server = server;
  const connections = capConnections(server, maxConnections);
  state.connections = connections;
  return { server, drain: drainHandle(server, state), connections };
}

/** The response class of one server: made by node for every request, before the `request` event. */
function trackedResponseClass(state: DrainState) {
  // node:http constructs its response class with (request, options); the typings name only the request.
  const Base = ServerResponse as unknown as new (request: IncomingMessage, options?: object) => ServerResponse;
  return class TrackedResponse extends Base implements Linked {
    prev: Linked;
    next: Linked;
    #closed = false;
    readonly #socket: Socket;

    constructor(request: IncomingMessage, options?: object) {
      super(request, options);
      this.#socket = request.socket;
      state.connections?.requestStarted(this.#socket);
      const { ring } = state;
      this.prev = ring.prev;
      this.next = ring;
      ring.prev.next = this;
      ring.prev = this;
      state.inFlight += 1;
      // Set before the app's handler can start writing, as for every response from the drain on.
      if (state.draining) this.setHeader('Connection', 'close');
    }

    // node's events of a response carry at most one argument; a rest parameter would allocate per emit,
    // so any other count is forwarded as it came.
    override emit(event: string | symbol, argument?: unknown): boolean {
      if (event === 'close' && !this.#closed) this.#untrack();
      if (arguments.length === 1) return super.emit(event);
      if (arguments.length === 2) return super.emit(event, argument);
      return (Base.prototype.emit as (...args: unknown[]) => boolean).apply(this, Array.from(arguments));
    }

    #untrack(): void {
      this.#closed = true;
      this.prev.next = this.next;
      this.next.prev = this.prev;
      state.inFlight -= 1;
      state.connections?.requestEnded(this.#socket);
      // A response whose headers left before the drain began could not say `Connection: close`;
      // once the grace is over its socket is closed as soon as it turns idle.
      const { server } = state;
      if (state.idleClosed && server !== undefined) setImmediate(() => server.closeIdleConnections());
    }
  };
}

function drainHandle(server: Server, state: DrainState): ServerDrain {
  let outcome: Promise<DrainOutcome> | undefined;
  return {
    get draining() {
      return state.draining;
    },
    get inFlight() {
      return state.inFlight;
    },
    drain(options) {
      outcome ??= new Promise<DrainOutcome>((resolve) => {
        state.draining = true;
        for (let node = state.ring.next; node !== state.ring; node = node.next) {
          const response = node as unknown as ServerResponse;
          if (!response.headersSent) response.setHeader('Connection', 'close');
        }
        let idleTimer: NodeJS.Timeout | undefined;
        let deadline: NodeJS.Timeout | undefined;
        let settled = false;
        const finish = (drained: boolean) => {
          if (settled) return;
          settled = true;
          clearTimeout(idleTimer);
          clearTimeout(deadline);
          const abandoned = state.inFlight;
          if (!drained) server.closeAllConnections();
          resolve({ drained, abandoned });
        };
        // net.Server's close stops accepting and calls back once every connection has ended. http.Server's
        // own close() would also destroy idle keep-alive sockets at once, racing in-transit requests.
        NetServer.prototype.close.call(server, () => finish(true));
        idleTimer = setTimeout(() => {
          state.idleClosed = true;
          server.closeIdleConnections();
        }, options.idleGraceMs);
        deadline = setTimeout(() => finish(false), options.deadlineMs);
      });
      return outcome;
    },
  };
}
