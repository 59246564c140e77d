/**
 * Opens the key store for a command. Only `hra keys create` (and the quick start, which issues demo keys
 * on a fresh machine) may create a missing store, and it says so on stderr; every other command refuses
 * a path with no store, so a typo cannot silently start an empty one.
 */
import { KeyStoreMissingError, KeyStoreUnavailableError } from '../../gateway/keys/key-errors.ts';
import type { KeyStore } from '../../gateway/keys/key-store.ts';
import { statSync } from 'node:fs';
import { describeUnknownKeyStoreScheme, isPostgresUrl, openKeyStoreAt } from '../../gateway/keys/key-store-url.ts';
import { CliFailure, progress } from '../cli-failure.ts';

/** How to open: `source` names where the path came from (`--keys`, `HRA_KEYS`), for the failure line. */
export interface CliKeyStoreOptions {
  readonly create: boolean;
  readonly source: string;
}

/**
 * Opens the store at `location` (a SQLite path or a postgres:// URL); a missing SQLite file is created
 * only with `create`, else a one-line CliFailure. A PostgreSQL store's schema is always migrated.
 */
export async function openCliKeyStore(location: string, options: CliKeyStoreOptions): Promise<KeyStore> {
  const unknownScheme = describeUnknownKeyStoreScheme(location);
  if (unknownScheme !== undefined) throw new CliFailure(`${options.source}: ${unknownScheme}`);
  const open = async (create: boolean) => (await openKeyStoreAt(location, { now: () => new Date(), role: 'cli', create })).store;
  // An empty file (`touch keys.sqlite`, a mktemp) holds no store yet: keys create initialises it like a
  // missing one; the other commands refuse it as a store that was never made.
  const empty = !isPostgresUrl(location) && statSync(location, { throwIfNoEntry: false })?.size === 0;
  if (empty && !options.create) throw new CliFailure(`${options.source} ${location}: empty file, not a key store (only hra keys create initialises one)`);
  if (!empty) {
    try {
      return await open(false);
    } catch (error) {
      if (!(error instanceof KeyStoreMissingError)) throw asCliFailure(error, options.source);
      if (!options.create) throw missingKeyStore(options.source, location);
    }
  }
  try {
    const store = await open(true);
    progress(`${empty ? 'initialised' : 'created'} key store ${location}`);
    return store;
  } catch (error) {
    throw asCliFailure(error, options.source);
  }
}

/** A store that exists but cannot be used (not SQLite, a newer schema, locked) fails on one line naming the flag; the message names the file. */
function asCliFailure(error: unknown, source: string): unknown {
  return error instanceof KeyStoreUnavailableError ? new CliFailure(`${source}: ${error.message}`) : error;
}

/** The one line for a key store path with no store: which flag, which path, and what makes one. */
export function missingKeyStore(source: string, path: string): CliFailure {
  return new CliFailure(`${source} ${path}: key store not found (only hra keys create makes a new one)`);
}
