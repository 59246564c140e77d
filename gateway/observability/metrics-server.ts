/** The admin port: `GET /metrics` in the Prometheus text format on a plain node:http server; nothing else. */
import { createServer } from 'node:http';
import { listenOn } from '../http/listen-on.ts';
import { NOSNIFF_HEADER } from '../http/nosniff-header.ts';
import type { Registry } from 'prom-client';
import type { GatewayLogger } from './gateway-logger.ts';

/** A listening metrics server. */
export interface MetricsServer {
  /** Base URL; scrape `${url}/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Options of startMetricsServer. */
export interface MetricsServerOptions {
  port: number;
  /** The API's host: metrics are as reachable as the API, no more. */
  host: string;
  log?: GatewayLogger;
}

/** Serves `registry` on `host:port`; every other path or method is a 404. */
export async function startMetricsServer(registry: Registry, options: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer({ maxHeaderSize: 8 * 1024, requestTimeout: 10_000, headersTimeout: 5_000 }, (request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', [NOSNIFF_HEADER[0]]: NOSNIFF_HEADER[1] }).end('not found: the admin port serves GET /metrics only\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store', [NOSNIFF_HEADER[0]]: NOSNIFF_HEADER[1] });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        options.log?.error({ err: error }, 'metrics collection failed');
        response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', [NOSNIFF_HEADER[0]]: NOSNIFF_HEADER[1] }).end('metrics collection failed\n');
      },
    );
  });
  const url = await listenOn(server, options.port, options.host);
  options.log?.info({ metricsUrl: `${url}/metrics` }, `metrics on ${url}/metrics`);
  return {
    url,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
