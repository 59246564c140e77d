/**
 * A snapshot whose schema is not the one the build writes is refused by the structural check that both the
 * gateway's open and `hra verify` run, before any of its tables is queried: a view (here over a recursive CTE
 * that never ends), a trigger, an extra table, a missing index, a table defined otherwise.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { inspectSnapshot } from '../../../build/snapshot/inspect-snapshot.ts';
import { PREVIOUS_SNAPSHOT_FORMAT_VERSIONS } from '../../../build/snapshot/snapshot-format.ts';
import { verifySnapshot } from '../../../build/snapshot/verify-snapshot.ts';
import { buildTestSnapshot, MINI_CORPUS } from '../../support/start-test-gateway.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-snapshot-schema-');
let made = 0;

/** A copy of a real snapshot with `sql` run on it. */
function craft(sql: string): string {
  const file = join(work, `crafted-${++made}.sqlite`);
  copyFileSync(buildTestSnapshot(), file);
  chmodSync(file, 0o644);
  const db = new Database(file);
  db.exec(sql);
  db.close();
  return file;
}

const NEVER_ENDING_VIEW = `DROP TABLE documents; CREATE VIEW documents AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
  SELECT 'cities' AS name, zeroblob(1) AS body, 'x' AS etag FROM r`;

const CASES = [
  { name: 'a view in the place of a table', sql: NEVER_ENDING_VIEW, reason: /^schema: view documents is not one the build writes$/ },
  { name: 'a trigger', sql: "CREATE TRIGGER meta_guard AFTER INSERT ON meta BEGIN SELECT 1; END", reason: /^schema: trigger meta_guard is not one the build writes$/ },
  { name: 'an extra table', sql: 'CREATE TABLE padding (blob BLOB); INSERT INTO padding VALUES (zeroblob(100000))', reason: /^schema: table padding is not one the build writes \(not the schema the build writes for format 5\)$/ },
  { name: 'a missing index', sql: 'DROP INDEX programs_by_city_id', reason: /^schema: index programs_by_city_id is missing \(not the schema/ },
  { name: 'an extra index', sql: 'CREATE INDEX programs_by_facets ON programs (facets)', reason: /^schema: index programs_by_facets on programs is not one the build writes/ },
  { name: 'a table defined otherwise', sql: 'DROP TABLE read_digests; CREATE TABLE read_digests (kind TEXT PRIMARY KEY, keys TEXT NOT NULL, digests BLOB NOT NULL)', reason: /^schema: table read_digests is not defined as the build defines it/ },
] as const;

describe('inspectSnapshot: the schema', () => {
  it('passes the file the build writes', () => {
    const db = new Database(buildTestSnapshot(), { readonly: true });
    try {
      assert.deepEqual(inspectSnapshot(db, { deep: false }), [{ check: 'format', ok: true }]);
    } finally {
      db.close();
    }
  });

  for (const testCase of CASES) {
    it(`refuses ${testCase.name}, for the gateway's open and for hra verify`, () => {
      const file = craft(testCase.sql);
      const db = new Database(file, { readonly: true });
      try {
        const [result] = inspectSnapshot(db, { deep: false });
        assert.equal(result?.ok, false);
        assert.match(result.ok ? '' : result.reason, testCase.reason);
      } finally {
        db.close();
      }
      const verified = verifySnapshot(file, loadCorpus(MINI_CORPUS));
      assert.equal(verified.length, 1);
      assert.match(verified[0]!.ok ? '' : verified[0]!.reason, testCase.reason);
    });
  }

  it('refuses a view or trigger in a previous format\'s file too, before reading meta', () => {
    const db = new Database(craft("DROP TABLE meta; CREATE VIEW meta AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT 'format' AS key, 'x' AS value FROM r"), { readonly: true });
    try {
      const [result] = inspectSnapshot(db, { deep: false, formatVersions: PREVIOUS_SNAPSHOT_FORMAT_VERSIONS });
      assert.deepEqual(result, { check: 'format', ok: false, reason: 'schema: view meta is not one the build writes' });
    } finally {
      db.close();
    }
  });
});
