/**
 * The cap on open client connections (`--max-connections`): each holds a descriptor, and a process out of
 * descriptors fails everything, legitimate requests and snapshot swaps alike. A connection waits while it
 * has no request in progress: it is silent, or sending its head, before its first request (fresh), or idle
 * between keep-alive requests. One more connection than the cap closes a waiting one to make room: the
 * oldest fresh one, else the longest-idle keep-alive one. So a flood of silent sockets evicts its own
 * oldest, a client that sends its request at once gets in, and a client that has been served keeps its
 * connection longest. When every connection has a request in progress, the new one is closed at once.
 * Waiting connections also end by themselves: 5 s idle after a response, 10 s without a complete head
 * (harden-server.ts).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** The cap's view of one server's connections. */
export interface ConnectionCap {
  /** Connections open now (those closed to keep the cap no longer count). */
  readonly open: number;
  /** New connections closed at once because every open one had a request in progress. */
  readonly refused: number;
  /** Waiting connections closed to make room for a new one. */
  readonly evicted: number;
  /** A request of `socket` began (its head was read): the connection stops waiting. */
  requestStarted(socket: Socket): void;
  /** A request of `socket` ended (its response closed): with none left in progress, it is idle. */
  requestEnded(socket: Socket): void;
}

/** One tracked connection; in one of the two waiting lists while it has no request in progress. */
interface Tracked {
  readonly socket: Socket;
  list: WaitingList | undefined;
  prev: Tracked | undefined;
  next: Tracked | undefined;
  inProgress: number;
  closed: boolean;
}

/** Connections in the order they began waiting, oldest first. */
interface WaitingList {
  head: Tracked | undefined;
  tail: Tracked | undefined;
}

const TRACKED = Symbol('connection cap entry');
type CappedSocket = Socket & { [TRACKED]?: Tracked };

function unlink(entry: Tracked): void {
  const { list } = entry;
  if (list === undefined) return;
  if (entry.prev === undefined) list.head = entry.next;
  else entry.prev.next = entry.next;
  if (entry.next === undefined) list.tail = entry.prev;
  else entry.next.prev = entry.prev;
  entry.list = undefined;
  entry.prev = undefined;
  entry.next = undefined;
}

function append(list: WaitingList, entry: Tracked): void {
  entry.list = list;
  entry.prev = list.tail;
  entry.next = undefined;
  if (list.tail === undefined) list.head = entry;
  else list.tail.next = entry;
  list.tail = entry;
}

/** Tracks `server`'s connections and holds them to `maxConnections`. */
export function capConnections(server: Server, maxConnections: number): ConnectionCap {
  const fresh: WaitingList = { head: undefined, tail: undefined };
  const idle: WaitingList = { head: undefined, tail: undefined };
  let open = 0;
  let refused = 0;
  let evicted = 0;

  const forget = (entry: Tracked) => {
    if (entry.closed) return;
    entry.closed = true;
    unlink(entry);
    open -= 1;
  };

  server.on('connection', (socket: CappedSocket) => {
    const entry: Tracked = { socket, list: undefined, prev: undefined, next: undefined, inProgress: 0, closed: false };
    socket[TRACKED] = entry;
    open += 1;
    append(fresh, entry);
    socket.once('close', () => forget(entry));
    if (open <= maxConnections) return;
    // The new connection is the fresh list's tail, so an older fresh one, if any, is its head.
    const victim = (fresh.head === entry ? undefined : fresh.head) ?? idle.head;
    if (victim === undefined) refused += 1;
    else evicted += 1;
    const closing = victim ?? entry;
    // Counted out now: its `close` comes a turn later, after more connections may have arrived.
    forget(closing);
    closing.socket.destroy();
  });

  return {
    get open() {
      return open;
    },
    get refused() {
      return refused;
    },
    get evicted() {
      return evicted;
    },
    requestStarted(socket: CappedSocket) {
      const entry = socket[TRACKED];
      if (entry === undefined || entry.closed) return;
      if (entry.inProgress++ === 0) unlink(entry);
    },
    requestEnded(socket: CappedSocket) {
      const entry = socket[TRACKED];
      if (entry === undefined || entry.closed || entry.inProgress === 0) return;
      if (--entry.inProgress === 0) append(idle, entry);
    },
  };
}
