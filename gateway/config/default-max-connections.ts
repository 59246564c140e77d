/**
 * The default cap on open client connections, derived from the process's open-file limit: every
 * connection holds a descriptor, and the gateway needs others besides (the snapshot and its watch, hash
 * worker threads during a swap, the key store, Redis or PostgreSQL, the log, module loading). Node has no
 * getrlimit, so the soft limit is read from `/proc/self/limits` (Linux); elsewhere the usual soft limit
 * of 1,024 is assumed. Imports only node's own modules: `hra` reads the limit before anything else loads.
 */
import { readFileSync } from 'node:fs';

/** The soft limit assumed where `/proc/self/limits` cannot be read (not Linux): the common default of `ulimit -n`. */
export const ASSUMED_DESCRIPTOR_LIMIT = 1_024;

/** Stands for an `unlimited` soft limit: Linux's default ceiling of descriptors per process (`fs.nr_open`). */
const UNLIMITED_DESCRIPTORS = 1_048_576;

/** Descriptors a hash worker thread holds (its event loop's epoll, eventfds and pipes), measured on Node 20. */
const DESCRIPTORS_PER_WORKER = 4;

/** Descriptors kept besides the workers: snapshot files, key store, Redis, a PostgreSQL pool of 10, log, metrics. */
const BASE_RESERVE = 64;

/**
 * The open-file soft limit (`ulimit -n`, RLIMIT_NOFILE) of this process, from the `Max open files` line of
 * `limitsFile`; undefined when the file cannot be read or holds no such line.
 */
export function readDescriptorLimit(limitsFile = '/proc/self/limits'): number | undefined {
  let text: string;
  try {
    text = readFileSync(limitsFile, 'latin1');
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  if (soft === 'unlimited') return UNLIMITED_DESCRIPTORS;
  return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : undefined;
}

/**
 * The default of `--max-connections` under a soft limit of `descriptorLimit` on a machine of `cores`:
 * the limit less 64 descriptors and 4 per core (one hash worker per core), but never more than half the
 * limit kept back, and at least 1.
 */
export function defaultMaxConnections(descriptorLimit: number, cores: number): number {
  const reserve = Math.min(Math.floor(descriptorLimit / 2), BASE_RESERVE + DESCRIPTORS_PER_WORKER * cores);
  return Math.max(1, descriptorLimit - reserve);
}
