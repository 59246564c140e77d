/**
 * docs/operators.md "Setting up PostgreSQL and TLS", run as written on a real PostgreSQL cluster: the statements of its
 * `postgres-setup` block, as a superuser, make a role that is no superuser and owns one database, and
 * `hra keys` with that role migrates the schema and issues, lists and revokes keys; a role that only has
 * CONNECT on a database someone else owns is refused as the docs say. A password is never printed.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { postgresServerSkip, startPostgresServer, type PostgresServer } from '../support/postgres-server.ts';
import { ROOT, runHraAsync, stderrLines } from '../support/run-hra.ts';

const skip = postgresServerSkip();
if (skip) console.log(`# skipping the PostgreSQL set-up of docs/operators.md: ${skip}`);

/** The SQL block docs/operators.md marks with `<!-- postgres-setup -->`, split into statements. */
function readmeStatements(): string[] {
  const readme = readFileSync(join(ROOT, 'docs', 'operators.md'), 'utf8');
  const block = /<!-- postgres-setup -->\n```sql\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block !== undefined, 'docs/operators.md has a ```sql block after <!-- postgres-setup -->');
  return block.split(';').map((statement) => statement.trim()).filter((statement) => statement !== '');
}

describe('docs/operators.md: PostgreSQL role and database for the key store', { skip }, () => {
  let postgres: PostgresServer;
  /** Runs SQL as the cluster's superuser (`hra`, made by initdb). */
  const asSuperuser = async (statements: readonly string[], database = 'postgres'): Promise<pg.QueryResult[]> => {
    const client = new pg.Client({ host: '127.0.0.1', port: postgres.port, user: 'hra', database });
    await client.connect();
    try {
      const results: pg.QueryResult[] = [];
      for (const statement of statements) results.push(await client.query(statement));
      return results;
    } finally {
      await client.end();
    }
  };
  const keys = (url: string, ...args: string[]) => runHraAsync(['keys', ...args, '--keys', url], { env: { PGPASSWORD: 'change-me' } });

  before(async () => {
    postgres = await startPostgresServer();
    await asSuperuser(readmeStatements());
  });
  after(async () => postgres?.stop());

  it('makes a role that is no superuser and may create neither roles nor databases', async () => {
    const [result] = await asSuperuser(["SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = 'hra_gateway'"]);
    assert.deepEqual(result?.rows, [{ rolsuper: false, rolcreatedb: false, rolcreaterole: false }]);
  });

  it('lets hra keys, as that role, migrate the schema and create, list and revoke keys', async () => {
    const url = `postgres://hra_gateway@127.0.0.1:${postgres.port}/hra_keys`;
    const created = await keys(url, 'create', '--tier', 'commercial', '--json');
    assert.equal(created.status, 0, created.stderr);
    const { id } = JSON.parse(created.stdout.trim().split('\n').at(-1) ?? '') as { id: string };
    const listed = await keys(url, 'list', '--json');
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`"id":"${id}"`));
    assert.equal((await keys(url, 'revoke', id)).status, 0);
    const [owner] = await asSuperuser(["SELECT tableowner FROM pg_tables WHERE tablename = 'api_keys'"], 'hra_keys');
    assert.deepEqual(owner?.rows, [{ tableowner: 'hra_gateway' }]);
  });

  it('refuses, on one line, a database the role may only connect to (PostgreSQL 15: permission denied for schema public)', async () => {
    await asSuperuser(['CREATE DATABASE hra_not_owned', 'GRANT CONNECT ON DATABASE hra_not_owned TO hra_gateway']);
    const run = await keys(`postgres://hra_gateway:change-me@127.0.0.1:${postgres.port}/hra_not_owned`, 'list');
    assert.equal(run.status, 1);
    assert.deepEqual(stderrLines(run).length, 1, run.stderr);
    assert.match(stderrLines(run)[0] ?? '', /^hra: --keys: key store postgres:\/\/hra_gateway:\*\*\*@127\.0\.0\.1:\d+\/hra_not_owned cannot be migrated: permission denied for schema public$/);
    assert.doesNotMatch(run.stderr, /change-me/);
  });

  it('never prints a password given in PGPASSWORD when the server cannot be reached', async () => {
    const run = await keys('postgres://hra_gateway@127.0.0.1:1/hra_keys', 'list');
    assert.equal(run.status, 1);
    assert.equal(stderrLines(run).length, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /change-me/);
  });
});
