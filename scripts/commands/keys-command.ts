/**
 * `hra keys create|revoke|rotate|list` (operator contract, "Operators and support"). The key store
 * keeps only digests: a plaintext key is printed once, by create or rotate, and never again.
 * In JSON output `cities` is `[]` for a paid key (unrestricted: the whole licensed scope).
 */
import { Option, type Command } from 'commander';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { KeyPolicyError, KeyStateError, KeyStoreUnavailableError, UnknownKeyIdError } from '../../gateway/keys/key-errors.ts';
import type { ListedKey } from '../../gateway/keys/key-listing.ts';
import { resolveKeyPolicy, type KeyPolicyRequest } from '../../gateway/keys/key-policy.ts';
import type { IssuedKey, KeyStore } from '../../gateway/keys/key-store.ts';
import { isKeyTier } from '../../gateway/keys/key-tiers.ts';
import { loadModules } from '../module-load-failure.ts';

interface StoreFlags {
  readonly keys: string;
  readonly json?: boolean;
}

interface CreateFlags extends StoreFlags {
  readonly tier: string;
  readonly cities?: string;
  readonly days?: string;
  readonly expiresAt?: string;
  readonly label?: string;
  readonly dataset: string;
}

/** The snapshot whose live cities a trial key may name (operator contract: `--dataset`, env, default). */
const DEFAULT_DATASET = 'dist/current.sqlite';

const isoDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** Registers `hra keys` and its four subcommands on the root program. */
export function registerKeysCommand(program: Command): void {
  const keys = program
    .command('keys')
    .description('create, revoke, rotate and list API keys (the store keeps only digests of secrets)');

  withStoreFlags(keys.command('create'))
    .description('issue a key and print its secret once')
    .requiredOption('--tier <tier>', 'trial, nonprofit or commercial')
    .option('--cities <slugs>', 'trial only: 1 to 5 comma-separated live city slugs')
    .option('--days <n>', 'lifetime in days (trial: at most 30, default 30; paid keys: no expiry by default)')
    .option('--expires-at <iso>', 'expiry date-time instead of --days; may lie in the past')
    .option('--label <text>', 'free text shown by list')
    .addOption(new Option('--dataset <file.sqlite>', 'trial only: the snapshot whose live cities --cities may name').env('HRA_DATASET').default(DEFAULT_DATASET))
    .action(async (flags: CreateFlags, command: Command) => {
      // Loaded when the command runs (it opens a snapshot): every other command registers this one.
      const { readTrialCities } = await loadModules(() => import('./read-trial-cities.ts'));
      // Everything is checked before the store is opened: a refused key leaves no new store behind.
      const request = parseCreateFlags(flags, describeSource(command, 'dataset'), readTrialCities);
      try {
        resolveKeyPolicy(request, new Date());
      } catch (error) {
        throw asCliFailure(error);
      }
      return withKeyStore(flags, { create: true }, async (store) => {
        const issued = await store.createKey(request);
        printIssued(issued, flags, `created ${issued.id}`);
      });
    });

  withStoreFlags(keys.command('revoke'))
    .description('stop a key at once (revoking twice keeps the first time)')
    .argument('<id>', 'key id, as printed by create or list')
    .action((id: string, flags: StoreFlags) => withKeyStore(flags, { create: false }, async (store) => {
      const revoked = await store.revokeKey(id);
      if (flags.json === true) printJson({ ok: true, ...revoked });
      else console.log(`${revoked.alreadyRevoked ? 'already revoked' : 'revoked'} ${id} at ${revoked.revokedAt}`);
    }));

  withStoreFlags(keys.command('rotate'))
    .description('revoke a key and issue its successor (new id, same tier, cities and expiry), printed once')
    .argument('<id>', 'key id, as printed by create or list')
    .action((id: string, flags: StoreFlags) => withKeyStore(flags, { create: false }, async (store) => {
      const issued = await store.rotateKey(id);
      printIssued(issued, flags, `rotated ${id} to ${issued.id}`);
    }));

  withStoreFlags(keys.command('list'))
    .description('list every key and its status; never prints secrets')
    .action((flags: StoreFlags) => withKeyStore(flags, { create: false }, async (store) => {
      const listed = (await store.listKeys()).map((key) => ({ ...key, cities: key.cities ?? [] }));
      if (flags.json === true) printJson({ ok: true, keys: listed });
      else if (listed.length === 0) console.log('no keys');
      else {
        console.log(LIST_COLUMNS.join('\t'));
        for (const key of listed) console.log(describeListed(key));
      }
    }));
}

function withStoreFlags(command: Command): Command {
  return command
    .addOption(new Option('--keys <db>', 'key store: a SQLite file (only create makes a missing one) or a postgres:// URL').env('HRA_KEYS').makeOptionMandatory())
    .option('--json', 'print one JSON object as the last stdout line');
}

function parseCreateFlags(flags: CreateFlags, datasetSource: string, readTrialCities: (source: string, path: string) => ReadonlySet<string>): KeyPolicyRequest {
  const { tier } = flags;
  if (!isKeyTier(tier)) throw new CliFailure(`--tier must be one of trial, nonprofit, commercial, got ${JSON.stringify(tier)}`);
  if (tier === 'trial' && flags.cities === undefined) {
    throw new CliFailure('a trial key needs --cities with 1 to 5 live city slugs');
  }
  if (flags.days !== undefined && flags.expiresAt !== undefined) {
    throw new CliFailure('give --days or --expires-at, not both');
  }
  if (flags.days !== undefined && !/^\d+$/.test(flags.days)) {
    throw new CliFailure(`--days must be a whole number of days, got ${JSON.stringify(flags.days)}`);
  }
  return {
    tier,
    cities: flags.cities?.split(',').map((city) => city.trim()),
    days: flags.days === undefined ? undefined : Number(flags.days),
    expiresAt: flags.expiresAt === undefined ? undefined : parseExpiresAt(flags.expiresAt),
    label: flags.label,
    // Paid keys cover the whole licensed scope and name no city, so they need no dataset.
    liveCitySlugs: tier === 'trial' ? readTrialCities(datasetSource, flags.dataset) : undefined,
    liveCitySource: `${datasetSource} ${flags.dataset}`,
  };
}

function parseExpiresAt(raw: string): Date {
  const date = new Date(raw);
  if (!isoDateTime.test(raw) || Number.isNaN(date.getTime())) {
    throw new CliFailure(`--expires-at must be an ISO 8601 date or date-time with zone, got ${JSON.stringify(raw)}`);
  }
  return date;
}

/** `--dataset`, `HRA_DATASET` or `default --dataset`: where an option's value came from, for failure lines. */
function describeSource(command: Command, name: string): string {
  const option = command.options.find((candidate) => candidate.attributeName() === name);
  const flag = option?.long ?? `--${name}`;
  const source = command.getOptionValueSource(name);
  if (source === 'env' && option?.envVar !== undefined) return option.envVar;
  return source === 'default' ? `default ${flag}` : flag;
}

async function withKeyStore(flags: StoreFlags, options: { create: boolean }, work: (store: KeyStore) => Promise<void>): Promise<void> {
  let store: KeyStore;
  try {
    // Loaded when a key command runs (SQLite, PostgreSQL): every other command registers these.
    const { openCliKeyStore } = await loadModules(() => import('./open-cli-key-store.ts'));
    store = await openCliKeyStore(flags.keys, { create: options.create, source: '--keys' });
  } catch (error) {
    throw asCliFailure(error);
  }
  try {
    await work(store);
  } catch (error) {
    throw asCliFailure(error);
  } finally {
    await store.close();
  }
}

function asCliFailure(error: unknown): unknown {
  const known =
    error instanceof KeyPolicyError ||
    error instanceof UnknownKeyIdError ||
    error instanceof KeyStateError ||
    error instanceof KeyStoreUnavailableError;
  return known ? new CliFailure(error.message) : error;
}

function printIssued(issued: IssuedKey, flags: StoreFlags, what: string): void {
  const { id, key, tier, expiresAt, rotatedFrom } = issued;
  const cities = issued.cities ?? [];
  progress('the key is shown only once: the store keeps its digest, not the key');
  if (flags.json === true) {
    printJson(rotatedFrom === null ? { ok: true, id, key, tier, expiresAt, cities } : { ok: true, id, key, tier, expiresAt, cities, rotatedFrom });
    return;
  }
  const scope = cities.length === 0 ? 'all licensed cities' : `cities ${cities.join(',')}`;
  console.log(`${what}: ${tier}, ${scope}, ${expiresAt === null ? 'no expiry' : `expires ${expiresAt}`}`);
  console.log(key);
}

/** The header row of `keys list`: one name per tab-separated column of describeListed. */
const LIST_COLUMNS = ['id', 'tier', 'status', 'expires', 'cities', 'label'] as const;

function describeListed(key: ListedKey): string {
  const cities = key.cities === null || key.cities.length === 0 ? '*' : key.cities.join(',');
  const fields = [key.id, key.tier, key.status, key.expiresAt ?? 'no-expiry', cities, key.label ?? ''];
  return fields.join('\t');
}
