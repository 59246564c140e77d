/**
 * The gateway's settings as one table (STYLE 11): name, flag, environment variable, default and help.
 * `hra serve` builds its options from it, parseGatewayConfig reads it, and a test checks that the README
 * documents every row.
 */

/** One setting. `kind` decides how its text is parsed. */
export interface GatewaySetting {
  name: 'dataset' | 'keys' | 'port' | 'host' | 'redis' | 'trustProxy' | 'limits' | 'cursorSecret' | 'logLevel' | 'metricsPort' | 'cacheMb' | 'maxConnections';
  flag: string;
  env: string;
  kind: 'path' | 'port' | 'host' | 'url' | 'boolean' | 'secret' | 'level' | 'megabytes' | 'count';
  default: string | undefined;
  help: string;
}

/** Every gateway setting; the flag wins over the environment variable, which wins over the default. */
export const GATEWAY_SETTINGS = [
  { name: 'dataset', flag: '--dataset <file>', env: 'HRA_DATASET', kind: 'path', default: 'dist/current.sqlite', help: 'snapshot to serve (a published current.sqlite follows new revisions on SIGHUP)' },
  { name: 'keys', flag: '--keys <db>', env: 'HRA_KEYS', kind: 'path', default: 'dist/keys.sqlite', help: 'key store: a SQLite file (must exist: hra keys create makes one) or a postgres:// URL shared by several gateways' },
  { name: 'port', flag: '--port <n>', env: 'HRA_PORT', kind: 'port', default: '8080', help: 'TCP port; 0 picks a free one' },
  { name: 'host', flag: '--host <address>', env: 'HRA_HOST', kind: 'host', default: '127.0.0.1', help: 'address to listen on' },
  { name: 'redis', flag: '--redis <url>', env: 'HRA_REDIS_URL', kind: 'url', default: undefined, help: 'keep rate-limit windows in Redis, shared by every gateway (redis://host:port)' },
  { name: 'trustProxy', flag: '--trust-proxy', env: 'HRA_TRUST_PROXY', kind: 'boolean', default: 'false', help: 'take client addresses for public limits from X-Forwarded-For' },
  { name: 'limits', flag: '--limits <file.json>', env: 'HRA_LIMITS', kind: 'path', default: undefined, help: 'override request limits (partial JSON: tiers.<tier>.perMinute|perDay, public.perMinute|perDay)' },
  { name: 'cursorSecret', flag: '--cursor-secret <text>', env: 'HRA_CURSOR_SECRET', kind: 'secret', default: undefined, help: 'secret signing change-feed cursors (default: kept in a postgres:// key store and shared by every gateway on it; random per process with a SQLite key store)' },
  { name: 'logLevel', flag: '--log-level <level>', env: 'HRA_LOG_LEVEL', kind: 'level', default: 'info', help: 'least severe log line written to stderr: trace, debug, info, warn, error, fatal or silent' },
  { name: 'cacheMb', flag: '--cache-mb <n>', env: 'HRA_CACHE_MB', kind: 'megabytes', default: '48', help: 'memory for cached response bodies and record lists, in MiB (1 to 65536); the process needs about 100 MB besides' },
  { name: 'maxConnections', flag: '--max-connections <n>', env: 'HRA_MAX_CONNECTIONS', kind: 'count', default: undefined, help: 'most open client connections, 1 to 1000000 (default: the open-file soft limit, ulimit -n, less 64 and 4 per core, keeping at least half); one more closes the oldest connection that has sent no request yet, else the longest idle between requests, or itself when every connection has a request in progress' },
  { name: 'metricsPort', flag: '--metrics-port <n>', env: 'HRA_METRICS_PORT', kind: 'port', default: undefined, help: 'serve Prometheus metrics at GET /metrics on this port of the same host (off when unset; 0 picks a free one)' },
] as const satisfies readonly GatewaySetting[];
