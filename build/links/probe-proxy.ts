/** Checks that the `--proxy` server accepts connections before a run appends anything. */
import { connect } from 'node:net';

/**
 * Resolves when a TCP connection to the proxy's host and port opens within `timeoutMs`; rejects with an
 * Error whose message says what happened (`connection refused`, `no answer within 15000 ms`).
 */
export function probeProxy(proxy: string, timeoutMs: number): Promise<void> {
  const url = new URL(proxy);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  // URL keeps the brackets of an IPv6 literal; net.connect wants the bare address.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.end();
      resolve();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(error.code === 'ECONNREFUSED' ? 'connection refused' : `cannot connect (${error.code ?? error.message})`));
    });
  });
}
