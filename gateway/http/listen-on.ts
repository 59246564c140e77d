/** Binds a server to an address and says where it answers; shared by the API listener and the metrics port. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on `port` and `host` and resolves to the base URL; rejects (nothing left listening) when the address cannot be bound. */
export async function listenOn(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  return `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
}
