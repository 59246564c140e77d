/**
 * The gateway's settings as one table (STYLE 11): name, flag, environment variable, default and help.
 * `hra serve` builds its options and `--help` from it, parseGatewayConfig reads it, and a test checks that the
 * docs/operators.md documents every row with the same words.
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
  { name: 'dataset', flag: '--dataset <file>', env: 'HRA_DATASET', kind: 'path', default: 'dist/current.sqlite', help: 'snapshot to serve; a new file at this path (a repointed current.sqlite, or one renamed over it) is checked and served within a second, and SIGHUP asks at once' },
  { name: 'keys', flag: '--keys <db>', env: 'HRA_KEYS', kind: 'path', default: 'dist/keys.sqlite', help: 'key store: a SQLite file that must exist (hra keys create makes it, npm start on first run), or a postgres://user@host:port/db URL shared by several gateways' },
  { name: 'port', flag: '--port <n>', env: 'HRA_PORT', kind: 'port', default: '8080', help: 'TCP port; 0 picks a free one' },
  { name: 'host', flag: '--host <address>', env: 'HRA_HOST', kind: 'host', default: '127.0.0.1', help: 'address to listen on' },
  { name: 'redis', flag: '--redis <url>', env: 'HRA_REDIS_URL', kind: 'url', default: undefined, help: 'rate-limit windows in Redis (redis://host:port), shared by every gateway process or host' },
  { name: 'trustProxy', flag: '--trust-proxy', env: 'HRA_TRUST_PROXY', kind: 'boolean', default: 'false', help: 'client addresses for public limits from X-Forwarded-For (behind a trusted proxy only)' },
  { name: 'limits', flag: '--limits <file.json>', env: 'HRA_LIMITS', kind: 'path', default: undefined, help: 'partial override of the request limits, a JSON file: {"tiers": {"trial": {"perMinute": 100}}, "public": {"perMinute": 600}}' },
  { name: 'cursorSecret', flag: '--cursor-secret <text>', env: 'HRA_CURSOR_SECRET', kind: 'secret', default: undefined, help: 'HMAC key of change-feed cursors; overrides the one a postgres:// key store, or else --redis, keeps and shares. With neither it is random per process: set the same value on every gateway behind one address' },
  { name: 'logLevel', flag: '--log-level <level>', env: 'HRA_LOG_LEVEL', kind: 'level', default: 'info', help: 'least severe log line written to stderr: trace, debug, info, warn, error, fatal or silent' },
  { name: 'cacheMb', flag: '--cache-mb <n>', env: 'HRA_CACHE_MB', kind: 'megabytes', default: '48', help: 'MiB of cached response bodies and per-city record lists (30% unfiltered collections, 20% record lists, 15% filtered collections, 15% compressed (br, gzip) forms of bodies, 10% detail records, 10% change-feed pages), 1 to 65536; the process needs about 100 MB besides' },
  { name: 'metricsPort', flag: '--metrics-port <n>', env: 'HRA_METRICS_PORT', kind: 'port', default: undefined, help: 'serve Prometheus metrics at GET /metrics on this port of the same host; 0 picks a free one' },
  { name: 'maxConnections', flag: '--max-connections <n>', env: 'HRA_MAX_CONNECTIONS', kind: 'count', default: undefined, help: 'most open client connections, 1 to 1000000 (default: the open-file soft limit, ulimit -n, less 64 and 4 per core, keeping at least half); one more closes the oldest connection that has sent no request yet, else the longest idle between requests, or itself when every connection has a request in progress' },
] as const satisfies readonly GatewaySetting[];
