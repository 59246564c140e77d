/**
 * The gateway's Prometheus metrics (prom-client) in a registry of its own, never the global one. Every
 * label is bounded: route templates, method and status classes, fixed scopes. Never a key id, an
 * address or a raw path.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ResponseCoding } from '../encoding/negotiate-encoding.ts';
import { methodClass, statusClass } from './route-label.ts';

/** Which limit turned a request away. */
export type RejectionScope = 'key' | 'public';
/** Which store failed. */
export type FaultyStorage = 'rate_limit' | 'key_store';

/** What the gateway records; `registry` is what the admin port serves. */
export interface GatewayMetrics {
  readonly registry: Registry;
  /** One answered request: its route template, method, status and duration. */
  observeRequest(request: { route: string; method: string; status: number; seconds: number }): void;
  /** A 429 from the key's windows or the per-address public window. */
  countRejection(scope: RejectionScope): void;
  /** A storage fault seen by a request (the request answered 503, or public data flowed unmetered). */
  countStorageFault(storage: FaultyStorage): void;
  /** Body bytes written for one response, in the content coding they were sent in (0 for HEAD and 304). */
  countResponseBytes(coding: ResponseCoding, bytes: number): void;
}

/** Options of createGatewayMetrics. */
export interface GatewayMetricsOptions {
  /** The served revision, read at each scrape, so a hot swap needs no call into the metrics. */
  revision: () => string;
  /** Also collect the default process metrics (CPU, memory, event loop lag, GC); default true. */
  processMetrics?: boolean;
}

/** Latency buckets in seconds: sub-millisecond cache hits up to the 30 s request timeout. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Creates the metrics of one gateway app. */
export function createGatewayMetrics(options: GatewayMetricsOptions): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: 'hra_http_requests_total',
    help: 'HTTP requests answered, by route template (or "unmatched"), method (GET, HEAD, other) and status class',
    labelNames: ['route', 'method', 'status_class'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'hra_http_request_duration_seconds',
    help: 'Time from receiving a request to deciding its response, by route template',
    labelNames: ['route'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const rejections = new Counter({
    name: 'hra_rate_limit_rejections_total',
    help: 'Requests refused with 429, by the limit that refused them (key windows or the per-address public window)',
    labelNames: ['scope'] as const,
    registers,
  });
  const faults = new Counter({
    name: 'hra_storage_faults_total',
    help: 'Requests that met an unavailable store (rate-limit windows or the key store)',
    labelNames: ['storage'] as const,
    registers,
  });
  const responseBytes = new Counter({
    name: 'hra_http_response_bytes_total',
    help: 'Response body bytes sent, by content coding (br, gzip, identity): what compression saves on the wire',
    labelNames: ['encoding'] as const,
    registers,
  });
  new Gauge({
    name: 'hra_dataset_revision_info',
    help: 'The dataset revision being served (value 1)',
    labelNames: ['revision'] as const,
    registers,
    collect() {
      // Read at scrape time: after a swap the old revision's series disappears, the new one reads 1.
      this.reset();
      this.set({ revision: options.revision() }, 1);
    },
  });
  // Known series start at zero, so a rate() over them works before the first event.
  for (const scope of ['key', 'public'] as const) rejections.inc({ scope }, 0);
  for (const storage of ['rate_limit', 'key_store'] as const) faults.inc({ storage }, 0);
  for (const encoding of ['br', 'gzip', 'identity'] as const) responseBytes.inc({ encoding }, 0);
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  return {
    registry,
    observeRequest({ route, method, status, seconds }) {
      requests.inc({ route, method: methodClass(method), status_class: statusClass(status) });
      duration.observe({ route }, seconds);
    },
    countRejection: (scope) => rejections.inc({ scope }),
    countStorageFault: (storage) => faults.inc({ storage }),
    countResponseBytes: (encoding, bytes) => responseBytes.inc({ encoding }, bytes),
  };
}
