/**
 * Which key store `--keys` names: a `postgres://` (or `postgresql://`) URL is the PostgreSQL store shared
 * by several gateway hosts; anything else is the path of the embedded SQLite file.
 */
import { resolve } from 'node:path';
import type { KeyStoreFileEvent } from './follow-key-store-file.ts';
import type { KeyStore } from './key-store.ts';
import { openKeyStore } from './sqlite-key-store.ts';
import type { KeyCacheBounds } from './postgres-key-cache.ts';

/** The two kinds of key store, as readiness and the logs name them. */
export type KeyStoreScheme = 'sqlite' | 'postgres';

/** How to open the store `--keys` names. */
export interface KeyStoreLocationOptions {
  readonly now: () => Date;
  /** A gateway keeps a cache of a shared store current; a CLI run does not (see postgres-key-store.ts). */
  readonly role: 'gateway' | 'cli';
  /** Create a missing SQLite file (only `hra keys create` does); a PostgreSQL schema is always migrated. */
  readonly create?: boolean;
  readonly cacheBounds?: Partial<KeyCacheBounds>;
  readonly onStatus?: (status: 'listening' | 'lost', detail: string) => void;
  /** The SQLite store's file was reopened or became unreadable (see follow-key-store-file.ts). */
  readonly onFileChange?: (event: KeyStoreFileEvent) => void;
}

/** An open key store and what its kind offers. */
export interface OpenedKeyStore {
  readonly store: KeyStore;
  readonly scheme: KeyStoreScheme;
  /** A secret every process on the same store agrees on; undefined for SQLite, which is one host's file. */
  readonly sharedSecret: ((name: string) => Promise<Buffer>) | undefined;
}

/** True when `location` is a PostgreSQL connection URL rather than a file path. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** A URL as given; a file path made absolute, as the serve settings resolve paths. */
export function normalizeKeyStoreLocation(location: string): string {
  return isPostgresUrl(location) ? location : resolve(location);
}

/** Opens the store at `location`; throws `KeyStoreUnavailableError` when it cannot be opened. */
export async function openKeyStoreAt(location: string, options: KeyStoreLocationOptions): Promise<OpenedKeyStore> {
  if (!isPostgresUrl(location)) {
    return { store: openKeyStore(location, { now: options.now, create: options.create, onFileChange: options.onFileChange }), scheme: 'sqlite', sharedSecret: undefined };
  }
  // Loaded only when used: the embedded default never needs pg.
  const { openPostgresKeyStore } = await import('./postgres-key-store.ts');
  const store = await openPostgresKeyStore(location, {
    now: options.now,
    watch: options.role === 'gateway',
    cacheBounds: options.cacheBounds,
    onStatus: options.onStatus,
  });
  return { store, scheme: 'postgres', sharedSecret: (name) => store.sharedSecret(name) };
}
