/**
 * The quick start (`npm start`): builds the demo corpus into dist/ when the published revision is missing
 * or stale, issues a demo key on first run, then serves on the embedded defaults (SQLite key store,
 * in-memory limits). Environment variables of `hra serve` still apply (HRA_PORT, HRA_HOST, ...).
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Command } from 'commander';
import { loadCorpus } from '../build/corpus/load-corpus.ts';
import { computeRevision } from '../build/revision/compute-revision.ts';
import { buildAndPublish, CURRENT_SNAPSHOT } from '../build/snapshot/publish-snapshot.ts';
import { openKeyStore } from '../gateway/keys/key-store.ts';
import { registerCommands } from './commands/register-commands.ts';
import { progress } from './cli-failure.ts';

const CORPUS = 'corpus';
const OUT = 'dist';
const KEYS = join(OUT, 'keys.sqlite');

const corpus = loadCorpus(CORPUS, { onProgress: progress });
const { revision } = computeRevision(corpus);
const current = join(OUT, CURRENT_SNAPSHOT);
const published = existsSync(current) ? basename(realpathSync(current), '.sqlite') : undefined;
if (published !== revision) {
  progress(`start: building the demo corpus into ${OUT}/ (published: ${published ?? 'none'})`);
  buildAndPublish(corpus, OUT, progress);
}

const store = openKeyStore(KEYS, { now: () => new Date() });
if ((await store.listKeys()).length === 0) {
  const commercial = await store.createKey({ tier: 'commercial', label: 'quick-start demo key' });
  const trial = await store.createKey({ tier: 'trial', cities: [corpus.manifest.defaultCity, corpus.manifest.sampleCity], days: 30, label: 'quick-start trial key' });
  progress(`start: demo keys (shown once; kept only as digests in ${KEYS}):`);
  progress(`  commercial ${commercial.key}`);
  progress(`  trial      ${trial.key}  (cities: ${trial.cities?.join(', ')})`);
} else {
  progress(`start: using the keys in ${KEYS} (issue more with: npm run --silent hra -- keys create --keys ${KEYS} --tier commercial --json)`);
}
await store.close();

const program = new Command('hra').exitOverride();
registerCommands(program);
await program.parseAsync(['serve', '--dataset', process.env.HRA_DATASET ?? current, '--keys', process.env.HRA_KEYS ?? KEYS], { from: 'user' });
