/**
 * A PostgreSQL key store URL without a password, for a role the server asks a password of (SCRAM, or the
 * cleartext `password` method): `hra keys` and `hra serve` say what to set, on one line naming `--keys`,
 * and never print a password; with PGPASSWORD set the same URL works.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { postgresServerSkip, startPostgresServer, type PostgresServer } from '../../support/postgres-server.ts';
import { runHraAsync, stderrLines } from '../../support/run-hra.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';

const PASSWORD = 'hunter2-secret';
const RUN_BOUND_MS = 20_000;
const skip = postgresServerSkip();
if (skip) console.log(`# skipping the missing-password tests: ${skip}`);

// No password from the caller's environment or home: only what a test sets.
const NO_PASSWORD_ENV = { PGPASSWORD: '', PGPASSFILE: '/nonexistent/pgpass' };

describe('a PostgreSQL key store URL without a password', { skip }, () => {
  let postgres: PostgresServer;
  let database = '';
  const urlFor = (role: string, password = '') => `postgres://${role}${password === '' ? '' : `:${password}`}@127.0.0.1:${postgres.port}/${database}`;

  before(async () => {
    postgres = await startPostgresServer({ hbaLines: ['host all scram_user 127.0.0.1/32 scram-sha-256', 'host all clear_user 127.0.0.1/32 password'] });
    const url = await postgres.createDatabase();
    database = new URL(url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      for (const role of ['scram_user', 'clear_user']) {
        await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${PASSWORD}'`);
        await admin.query(`GRANT ALL ON DATABASE ${database} TO ${role}`);
        await admin.query(`GRANT ALL ON SCHEMA public TO ${role}`);
      }
    } finally {
      await admin.end();
    }
  });
  after(async () => postgres?.stop());

  for (const role of ['scram_user', 'clear_user']) {
    it(`hra keys list (${role}): one line saying to put it in the URL or set PGPASSWORD`, async () => {
      const url = urlFor(role);
      const started = performance.now();
      const run = await runHraAsync(['keys', 'list', '--keys', url], { env: NO_PASSWORD_ENV });
      const ms = performance.now() - started;
      assert.equal(run.status, 1, run.stderr);
      assert.deepEqual(stderrLines(run), [`hra: --keys: ${url} has no password: put it in the URL (postgres://user:password@host:port/database) or set PGPASSWORD`]);
      // pg leaves the socket of a failed SCRAM handshake open, which kept the process alive for the server's
      // 60 s authentication timeout; the bound is start-up time on a loaded machine, not the contract's.
      assert.ok(ms < RUN_BOUND_MS, `hra keys list took ${Math.round(ms)} ms`);
      console.log(`# ${role}: hra keys list failed in ${Math.round(ms)} ms`);
    });
  }

  it('hra serve: the same line, naming HRA_KEYS when the URL came from there', async () => {
    const url = urlFor('scram_user');
    const run = await runHraAsync(['serve', '--dataset', buildTestSnapshot(), '--port', '0'], { env: { ...NO_PASSWORD_ENV, HRA_KEYS: url, HRA_LOG_LEVEL: 'silent' } });
    assert.equal(run.status, 1, run.stderr);
    assert.deepEqual(stderrLines(run), [`hra: HRA_KEYS: ${url} has no password: put it in the URL (postgres://user:password@host:port/database) or set PGPASSWORD`]);
  });

  it('with PGPASSWORD set, the same URL opens the store; a wrong password is named as such, never printed', async () => {
    const url = urlFor('scram_user');
    const ok = await runHraAsync(['keys', 'list', '--keys', url], { env: { ...NO_PASSWORD_ENV, PGPASSWORD: PASSWORD } });
    assert.equal(ok.status, 0, ok.stderr);
    const wrong = await runHraAsync(['keys', 'list', '--keys', urlFor('scram_user', 'not-it')], { env: NO_PASSWORD_ENV });
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /^hra: --keys: key store unavailable while opening postgres:\/\/scram_user:\*\*\*@\S+: password authentication failed for user "scram_user"\n$/);
    assert.doesNotMatch(wrong.stderr, /not-it/);
  });
});
