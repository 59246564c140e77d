/**
 * The quick start (`npm start`): builds the demo corpus into dist/ when nothing is published there (a
 * published revision, even an older one, is served as it is and never repointed unasked), issues demo keys
 * on first run (creating the key store), then serves on the embedded defaults (SQLite key store, in-memory
 * limits). A busy port or a missing dataset is refused before anything is built or written. The settings of `hra serve` apply (HRA_PORT, HRA_HOST, HRA_KEYS,
 * ...), read the same way; any failure is the same one line on stderr as from `hra`. A snapshot of rehearsal data
 * (`hra rehearse`) is refused.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Command } from 'commander';
import { computeRevision } from '../build/revision/compute-revision.ts';
import { buildAndPublish, CURRENT_SNAPSHOT } from '../build/snapshot/publish-snapshot.ts';
import { ConfigError, parseGatewayConfig } from '../gateway/config/parse-gateway-config.ts';
import { KeyPolicyError, KeyStoreUnavailableError } from '../gateway/keys/key-errors.ts';
import { resolveKeyPolicy, type KeyPolicyRequest } from '../gateway/keys/key-policy.ts';
import type { KeyStore } from '../gateway/keys/key-store.ts';
import { CliFailure, progress } from './cli-failure.ts';
import { loadCorpusOrFail } from './commands/load-corpus-or-fail.ts';
import { openCliKeyStore } from './commands/open-cli-key-store.ts';
import { registerCommands } from './commands/register-commands.ts';
import { readTrialCities } from './commands/read-trial-cities.ts';
import { refuseRehearsalSnapshot } from './commands/refuse-rehearsal-snapshot.ts';
import { requireListenable } from './commands/require-listenable.ts';
import { requireFile } from './commands/require-path.ts';
import { exitAfterFailure } from './exit-after-failure.ts';
import { endWithNpm } from './end-with-parent.ts';
import { reportFailure, runCli } from './run-cli.ts';

const CORPUS = 'corpus';
const OUT = 'dist';

/** Builds the demo corpus when needed and issues the demo keys into an empty (or new) key store. */
async function prepareQuickStart(): Promise<void> {
  let config;
  try {
    // Read as `hra serve` will read it, so a bad HRA_PORT fails at once rather than after the build.
    config = parseGatewayConfig({}, process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliFailure(error.message);
    throw error;
  }
  // Everything that can fail without a build is checked before the build: a refused start changes nothing.
  await requireListenable(config);
  const current = join(OUT, CURRENT_SNAPSHOT);
  if (resolve(config.dataset) !== resolve(current)) requireFile(config.sources.dataset, config.dataset, 'snapshot file');
  if (existsSync(config.dataset)) refuseRehearsalSnapshot(config.sources.dataset, config.dataset);
  const corpus = loadCorpusOrFail(CORPUS);
  const { revision } = computeRevision(corpus);
  const published = existsSync(current) ? basename(realpathSync(current), '.sqlite') : undefined;
  if (published === undefined) {
    progress(`start: building the demo corpus into ${OUT}/ (published: none)`);
    buildAndPublish(corpus, OUT, progress);
  } else if (published !== revision) {
    // A published revision is the maintainer's to replace: a gateway already serving it follows the link.
    progress(`start: serving the published revision ${published} of ${current}; the corpus would build to ${revision} (publish it with: npm run --silent hra -- build --corpus ${CORPUS} --out ${OUT})`);
  }

  // Built from a corpus marked as rehearsal data, the new snapshot is refused as well.
  refuseRehearsalSnapshot(config.sources.dataset, config.dataset);
  // The trial key may name only cities the served dataset has live (the same check as `hra keys create`).
  const liveCitySlugs = readTrialCities(config.sources.dataset, config.dataset);
  const store = await openCliKeyStore(config.keys, { create: true, source: config.sources.keys });
  try {
    if ((await store.listKeys()).length === 0) await issueDemoKeys(store, [corpus.manifest.defaultCity, corpus.manifest.sampleCity], liveCitySlugs, `${config.sources.dataset} ${config.dataset}`, config.keys);
    else progress(`start: using the keys in ${config.keys} (issue more with: npm run --silent hra -- keys create --keys ${config.keys} --tier commercial --json)`);
  } finally {
    await store.close();
  }
}

/** A commercial key and a trial key for `cities`, printed once; a trial city the dataset does not serve is refused on one line. */
async function issueDemoKeys(store: KeyStore, cities: string[], liveCitySlugs: ReadonlySet<string>, liveCitySource: string, keysPath: string): Promise<void> {
  const trialRequest: KeyPolicyRequest = { tier: 'trial', cities, days: 30, label: 'quick-start trial key', liveCitySlugs, liveCitySource };
  try {
    // Checked before anything is issued: a refused trial key leaves the store empty, so the next start tries again.
    resolveKeyPolicy(trialRequest, new Date());
    const commercial = await store.createKey({ tier: 'commercial', label: 'quick-start demo key' });
    const trial = await store.createKey(trialRequest);
    progress(`start: demo keys (shown once; kept only as digests in ${keysPath}):`);
    progress(`  commercial ${commercial.key}`);
    progress(`  trial      ${trial.key}  (cities: ${trial.cities?.join(', ')})`);
  } catch (error) {
    if (error instanceof KeyPolicyError || error instanceof KeyStoreUnavailableError) throw new CliFailure(`demo keys: ${error.message}`);
    throw error;
  }
}

endWithNpm();
try {
  await prepareQuickStart();
  const program = new Command('hra');
  registerCommands(program);
  // No flags: serve reads HRA_* and its defaults (dist/current.sqlite, dist/keys.sqlite) as prepared above.
  exitAfterFailure(await runCli(program, ['serve'], 'user'));
} catch (error) {
  exitAfterFailure(reportFailure(error, { json: false }));
}
