/** Puts a request listener on a hardened HTTP server and listens, tracking connections for a graceful drain. */
import type { RequestListener, Server } from 'node:http';
import { hardenServer, SERVER_LIMITS } from '../http/harden-server.ts';
import { listenOn } from '../http/listen-on.ts';
import { refuseLargeHeaderBlocks } from '../http/refuse-large-header-blocks.ts';
import type { GatewayLogger } from '../observability/gateway-logger.ts';
import type { ConnectionCap } from './cap-connections.ts';
import { createDrainableServer, type ServerDrain } from './drain-server.ts';

/** A listening server, its drain tracker and the base URL it answers on. */
export interface ListeningGateway {
  readonly server: Server;
  readonly drain: ServerDrain;
  readonly connections: ConnectionCap;
  readonly url: string;
}

/** Listens on `port` and `host` with at most `maxConnections` open; rejects (nothing left listening) when the address cannot be bound. */
export async function listenGateway(listener: RequestListener, address: { port: number; host: string; maxConnections: number }, log: GatewayLogger): Promise<ListeningGateway> {
  const { server, drain, connections } = createDrainableServer(SERVER_LIMITS, refuseLargeHeaderBlocks(listener), address.maxConnections);
  hardenServer(server, log);
  const url = await listenOn(server, address.port, address.host);
  return { server, drain, connections, url };
}
