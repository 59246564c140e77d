/** Parses the gateway settings once into a frozen object; a bad value fails start-up with a line naming it. */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { describeUnknownKeyStoreScheme, isPostgresUrl, normalizeKeyStoreLocation } from '../keys/key-store-url.ts';
import { DEFAULT_LIMITS, parseLimitsFile, type LimitTable } from '../limits/limit-table.ts';
import { LOG_LEVELS, type LogLevel } from '../observability/gateway-logger.ts';
import { ASSUMED_DESCRIPTOR_LIMIT, defaultMaxConnections, readDescriptorLimit } from './default-max-connections.ts';
import { GATEWAY_SETTINGS } from './gateway-settings.ts';

/** The parsed, validated configuration of one gateway process. */
export interface GatewayConfig {
  readonly dataset: string;
  readonly keys: string;
  readonly port: number;
  readonly host: string;
  readonly redisUrl: string | undefined;
  readonly trustProxy: boolean;
  readonly limits: LimitTable;
  readonly cursorSecret: string | undefined;
  readonly logLevel: LogLevel;
  /** The admin port serving `GET /metrics`; undefined keeps metrics off. */
  readonly metricsPort: number | undefined;
  /** Bytes the response caches may hold together (gateway/programs/cache-budget.ts splits them). */
  readonly cacheBytes: number;
  /** Most open client connections (gateway/operations/cap-connections.ts). */
  readonly maxConnections: number;
  /** The open-file soft limit read at start-up; undefined where it cannot be read (then 1,024 is assumed). */
  readonly descriptorLimit: number | undefined;
  /** Where each value came from (`--port`, `HRA_PORT`, `default of --port`), so later failures can name it. */
  readonly sources: Readonly<Record<Setting['name'], string>>;
}

/** Thrown for a setting that cannot be used; its message names the flag or variable and the value. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Setting = (typeof GATEWAY_SETTINGS)[number];

/** What the process's defaults derive from; read from the running process unless given (tests). */
export interface GatewayMachine {
  /** The open-file soft limit (`ulimit -n`), or undefined when it cannot be read. */
  readonly descriptorLimit: number | undefined;
  readonly cores: number;
}

/**
 * Resolves each setting from `flags` (commander's option values), then `env`, then the default, and
 * validates it.
 */
export function parseGatewayConfig(flags: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>, machine?: GatewayMachine): GatewayConfig {
  const raw = (setting: Setting): { value: string | undefined; source: string } => {
    const flagValue = flags[setting.name];
    if (flagValue !== undefined) return { value: flagValue === true ? 'true' : String(flagValue), source: setting.flag.split(' ')[0] ?? setting.flag };
    const envValue = env[setting.env];
    if (envValue !== undefined && envValue !== '') return { value: envValue, source: setting.env };
    return { value: setting.default, source: `default of ${setting.flag.split(' ')[0]}` };
  };
  const get = (name: Setting['name']) => {
    const setting = GATEWAY_SETTINGS.find((candidate) => candidate.name === name) as Setting;
    return { ...raw(setting), setting };
  };

  const port = get('port');
  const portNumber = parsePort(port.value, port.source);

  const metrics = get('metricsPort');
  const metricsPort = metrics.value === undefined ? undefined : parsePort(metrics.value, metrics.source);
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === portNumber) throw new ConfigError(`${metrics.source}: metrics port must differ from the API port, got ${metricsPort}`);

  const level = get('logLevel');
  const logLevel = LOG_LEVELS.find((candidate) => candidate === level.value?.toLowerCase());
  if (logLevel === undefined) throw new ConfigError(`${level.source}: log level must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(level.value)}`);

  const redis = get('redis');
  if (redis.value !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redis.value)) throw new ConfigError(`${redis.source}: must be a redis:// or rediss:// URL, got ${JSON.stringify(redis.value)}`);

  const trust = get('trustProxy');
  const trustValue = (trust.value ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0', 'yes', 'no'].includes(trustValue)) throw new ConfigError(`${trust.source}: must be true or false, got ${JSON.stringify(trust.value)}`);

  const limits = get('limits');
  let limitTable = DEFAULT_LIMITS;
  if (limits.value !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(limits.value, 'utf8'));
    } catch (error) {
      throw new ConfigError(`${limits.source}: cannot read limits file ${limits.value}: ${(error as Error).message}`);
    }
    try {
      limitTable = parseLimitsFile(json, limits.value);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
  }

  const secret = get('cursorSecret');
  if (secret.value !== undefined && secret.value.length < 16) throw new ConfigError(`${secret.source}: cursor secret must be at least 16 characters`);

  const cache = get('cacheMb');
  const cacheMb = Number(cache.value);
  if (!/^\d+$/.test(cache.value ?? '') || cacheMb < 1 || cacheMb > 65_536) throw new ConfigError(`${cache.source}: cache size must be an integer number of MiB from 1 to 65536, got ${JSON.stringify(cache.value)}`);

  const connections = get('maxConnections');
  const { descriptorLimit, cores } = machine ?? { descriptorLimit: readDescriptorLimit(), cores: availableParallelism() };
  let maxConnections = defaultMaxConnections(descriptorLimit ?? ASSUMED_DESCRIPTOR_LIMIT, cores);
  if (connections.value !== undefined) {
    maxConnections = Number(connections.value);
    if (!/^\d+$/.test(connections.value) || maxConnections < 1 || maxConnections > 1_000_000) throw new ConfigError(`${connections.source}: connection cap must be an integer from 1 to 1000000, got ${JSON.stringify(connections.value)}`);
  }

  const keys = get('keys');
  if (keys.value === undefined || keys.value === '') throw new ConfigError(`${keys.source}: must be a key store file or a postgres:// URL`);
  const unknownScheme = describeUnknownKeyStoreScheme(keys.value);
  if (unknownScheme !== undefined) throw new ConfigError(`${keys.source}: ${unknownScheme}`);
  if (isPostgresUrl(keys.value) && !URL.canParse(keys.value)) throw new ConfigError(`${keys.source}: not a valid postgres:// URL`);

  const host = get('host');
  if (!host.value || /\s/.test(host.value)) throw new ConfigError(`${host.source}: host must be an address, got ${JSON.stringify(host.value)}`);
  // Refused here, not by listen: a dotted number that is no IPv4 address would otherwise be looked up by DNS as a name.
  if (/^[\d.]+$/.test(host.value) && isIP(host.value) === 0) throw new ConfigError(`${host.source}: ${JSON.stringify(host.value)} is not a valid IPv4 address (four numbers from 0 to 255)`);

  return Object.freeze({
    dataset: resolve(get('dataset').value ?? ''),
    keys: normalizeKeyStoreLocation(keys.value),
    port: portNumber,
    host: host.value,
    redisUrl: redis.value,
    trustProxy: ['true', '1', 'yes'].includes(trustValue),
    limits: limitTable,
    cursorSecret: secret.value,
    logLevel,
    metricsPort,
    cacheBytes: cacheMb * 2 ** 20,
    maxConnections,
    descriptorLimit,
    sources: Object.freeze(Object.fromEntries(GATEWAY_SETTINGS.map((setting) => [setting.name, raw(setting).source])) as Record<Setting['name'], string>),
  });
}

function parsePort(value: string | undefined, source: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value ?? '') || port > 65_535) throw new ConfigError(`${source}: port must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  return port;
}
