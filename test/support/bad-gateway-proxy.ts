/**
 * A loopback HTTP proxy that stands for a proxy with no way out: while `down`, it answers every request
 * 502 Bad Gateway (or the `status` given, such as 503) and refuses every CONNECT tunnel with it, for any
 * host; while up, it answers every request itself with a program page and refuses CONNECT with 501 (a
 * proxy that forbids tunnels). Nothing leaves the machine.
 */
import { createServer, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A running proxy; flip `down` to cut its way out. */
export interface BadGatewayProxy {
  proxyUrl: string;
  down: boolean;
  /** Requests and tunnels answered, in arrival order, as `host down|up`. */
  seen: string[];
  /** Called as each request arrives, before it is answered (tests move their clock here). */
  onRequest?: (host: string) => void;
  close(): Promise<void>;
}

const PROGRAM_PAGE = '<!doctype html><html><head><title>Home Repair Grant</title></head><body><h1>Home Repair Grant</h1></body></html>';

/** Starts the proxy on an ephemeral loopback port, up or `down` from the start. */
export async function startBadGatewayProxy(options: { down: boolean; status?: number }): Promise<BadGatewayProxy> {
  const status = options.status ?? 502;
  const statusLine = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  const sockets = new Set<Socket>();
  const note = (request: IncomingMessage, host: string) => {
    proxy.seen.push(`${host} ${proxy.down ? 'down' : 'up'}`);
    proxy.onRequest?.(host);
    return request;
  };
  const server = createServer((request, response) => {
    const host = new URL(request.url?.startsWith('http') ? request.url : `http://${request.headers.host ?? 'unknown'}/`).host;
    note(request, host);
    if (proxy.down) return void response.writeHead(status, { 'content-type': 'text/plain' }).end(statusLine);
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(request.method === 'HEAD' ? undefined : PROGRAM_PAGE);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    note(request, request.url ?? '');
    socket.end(`HTTP/1.1 ${proxy.down ? statusLine : '501 Not Implemented'}\r\ncontent-length: 0\r\n\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: BadGatewayProxy = {
    proxyUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    down: options.down,
    seen: [],
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
  return proxy;
}
