/**
 * Kysely is loaded by a key store's first write or listing, never by a gateway, which only looks keys up
 * (key-store-connection.ts): its 263 modules were the largest share of the modules `hra serve` loaded
 * while its snapshot was being hashed. Real processes, run as an operator runs them, each with a module
 * hook that writes down every module node loads.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { buildAndPublish } from '../../../build/snapshot/publish-snapshot.ts';
import { openKeyStore } from '../../../gateway/keys/sqlite-key-store.ts';
import { MINI_CORPUS } from '../../support/start-test-gateway.ts';
import { get } from '../operations/serve-process.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

/** Registers hooks.mjs, which appends the URL of every module loaded to the file named by HRA_TEST_MODULE_LOG. */
const REGISTER = `import { register } from 'node:module';
register(new URL('./hooks.mjs', import.meta.url), { data: { log: process.env.HRA_TEST_MODULE_LOG } });
`;
const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) { appendFileSync(log, url + '\\n'); return next(url, context); }
`;

let dir: string;
let dataset: string;
let keysFile: string;
let commercialKey: string;
let city: string;
before(async () => {
  dir = makeTempDir('hra-key-store-modules-');
  writeFileSync(join(dir, 'register.mjs'), REGISTER);
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  const corpus = loadCorpus(MINI_CORPUS);
  dataset = buildAndPublish(corpus, join(dir, 'out')).file;
  city = corpus.manifest.defaultCity;
  keysFile = join(dir, 'keys.sqlite');
  const store = openKeyStore(keysFile, { now: () => new Date() });
  commercialKey = (await store.createKey({ tier: 'commercial', label: 'module loading test' })).key;
  await store.close();
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Spawns `hra <args>` under the module hook; `log` receives the module URLs. */
function spawnHra(args: readonly string[], log: string) {
  return spawn(process.execPath, ['--import', 'tsx', '--import', join(dir, 'register.mjs'), 'scripts/hra.ts', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, HRA_TEST_MODULE_LOG: log },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The packages under node_modules that the modules in `log` belong to. */
function packagesLoaded(log: string): Set<string> {
  const urls = readFileSync(log, 'utf8').split('\n');
  return new Set(urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
}

describe('the SQLite key store loads kysely only when it writes or lists', () => {
  it('hra serve answers a licensed request without loading kysely', async () => {
    const log = join(dir, 'serve-modules.txt');
    writeFileSync(log, '');
    const child = spawnHra(['serve', '--host', '127.0.0.1', '--port', '0', '--dataset', dataset, '--keys', keysFile], log);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
          const match = /listening on (http:\/\/\S+)/.exec(stdout);
          if (match) resolve(match[1] ?? '');
        });
        void exited.then(() => reject(new Error(`hra serve exited: ${stderr}`)));
      });
      const answer = await get(`${url}/api/programs/${city}`, new Agent(), { 'X-Api-Key': commercialKey });
      assert.equal(answer.status, 200, answer.body);
      const packages = packagesLoaded(log);
      // The hook sees packages: the gateway's own, and the SQLite driver the key was looked up with.
      assert.ok(packages.has('koa') && packages.has('better-sqlite3'), [...packages].join(', '));
      assert.equal(packages.has('kysely'), false, 'kysely loaded by hra serve');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('hra keys list loads it, and lists the key', async () => {
    const log = join(dir, 'list-modules.txt');
    writeFileSync(log, '');
    const child = spawnHra(['keys', 'list', '--keys', keysFile, '--json'], log);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, stdout);
    assert.match(stdout, /module loading test/);
    assert.ok(packagesLoaded(log).has('kysely'), 'kysely not loaded by hra keys list');
  });
});
