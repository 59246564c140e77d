/**
 * Integrity of the served snapshot in a real `hra serve` process: each damaged or foreign file is refused
 * at start (one stderr line, non-zero exit, nothing listening) and on swap (refusal logged, the old
 * revision keeps serving).
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { pointCurrentAt } from '../../../build/snapshot/publish-snapshot.ts';
import { checksumFileOf, formatChecksumLine, sha256FileChunked } from '../../../build/snapshot/snapshot-checksum.ts';
import { get, publishTwoRevisions, spawnServe, type ServeProcess, type TwoRevisions } from './serve-process.ts';
import { SNAPSHOT_FORMAT_VERSION } from '../../../build/snapshot/snapshot-format.ts';
import { writeFormat3Copy } from '../../support/format-2-snapshot.ts';

let revisions: TwoRevisions;
before(async () => {
  revisions = await publishTwoRevisions();
});
after(() => revisions.remove());

/** Writes `file`'s checksum file from its current bytes, as a build would. */
function recordChecksum(file: string): void {
  writeFileSync(checksumFileOf(file), formatChecksumLine(sha256FileChunked(file), 'x.sqlite'));
}

/** Copies revision A with its checksum file to `file`. */
function copyOfA(file: string): void {
  copyFileSync(revisions.a.file, file);
  copyFileSync(checksumFileOf(revisions.a.file), checksumFileOf(file));
}

/** Copies revision A to `file`, runs `sql` on it and records the altered file's checksum, as a forger would. */
function alteredCopyOfA(file: string, sql: string): void {
  copyOfA(file);
  const db = new Database(file);
  db.exec(sql);
  db.close();
  recordChecksum(file);
}

/** Flips one bit of one byte inside a served program body (the last copy of its name in the file). */
function flipByteInServedContent(file: string): void {
  const bytes = readFileSync(file);
  const offset = bytes.lastIndexOf('Alpha Roof Repair Grant');
  assert.ok(offset > 0);
  bytes[offset + 6] = (bytes[offset + 6] ?? 0) ^ 0x01;
  writeFileSync(file, bytes);
}

interface DamageCase {
  name: string;
  /** Creates the damaged file at `file` (with a checksum file unless the case is about it). */
  prepare: (file: string) => void;
  /** What the one refusal line says. */
  refusal: RegExp;
}

const CASES: DamageCase[] = [
  {
    name: 'a flipped byte in a served body (checksum file intact)',
    prepare: (file) => {
      copyOfA(file);
      flipByteInServedContent(file);
    },
    refusal: /refused: content: file sha256 [0-9a-f]{64} does not match [0-9a-f]{64} recorded in /,
  },
  {
    name: 'a truncated file',
    prepare: (file) => {
      copyOfA(file);
      truncateSync(file, 50_000);
    },
    refusal: /refused: header: file is 50000 bytes but its header records \d+ pages of \d+ bytes \(\d+ bytes\): truncated/,
  },
  {
    name: 'a file truncated at a page boundary, with a checksum file matching the truncated bytes',
    prepare: (file) => {
      copyOfA(file);
      truncateSync(file, 4096 * 8);
      recordChecksum(file);
    },
    refusal: /refused: header: .*: truncated/,
  },
  {
    name: 'a text file',
    prepare: (file) => {
      writeFileSync(file, 'this is not a snapshot\n');
      recordChecksum(file);
    },
    refusal: /refused: header: not a SQLite database/,
  },
  {
    name: 'an empty SQLite database',
    prepare: (file) => {
      const db = new Database(file);
      db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      db.close();
      recordChecksum(file);
    },
    refusal: /refused: header: not a home-repair-api snapshot \(SQLite application_id 0/,
  },
  {
    name: 'an unknown format version',
    prepare: (file) => {
      copyOfA(file);
      const db = new Database(file);
      db.prepare("UPDATE meta SET value = ? WHERE key = 'format_version'").run(String(SNAPSHOT_FORMAT_VERSION + 1));
      db.close();
      recordChecksum(file);
    },
    refusal: new RegExp(`refused: format: snapshot format version ${SNAPSHOT_FORMAT_VERSION + 1} is not the supported ${SNAPSHOT_FORMAT_VERSION}`),
  },
  {
    name: 'a snapshot of the previous format, 3 (served records stored twice): rebuild it',
    prepare: (file) => {
      writeFormat3Copy(revisions.a.file, file);
      recordChecksum(file);
    },
    refusal: new RegExp(`refused: format: snapshot format version 3 is not the supported ${SNAPSHOT_FORMAT_VERSION}`),
  },
  {
    name: 'a snapshot whose documents table is a view over a never-ending recursive CTE (checksum file matching)',
    prepare: (file) => alteredCopyOfA(file, `DROP TABLE documents; CREATE VIEW documents AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
      SELECT 'cities' AS name, zeroblob(1) AS body, 'x' AS etag FROM r`),
    refusal: /refused: format: schema: view documents is not one the build writes$/,
  },
  {
    name: 'a snapshot with a trigger and without one of its indexes (checksum file matching)',
    prepare: (file) => alteredCopyOfA(file, 'DROP INDEX changes_by_city; CREATE TRIGGER meta_guard AFTER INSERT ON meta BEGIN SELECT 1; END'),
    refusal: /refused: format: schema: trigger meta_guard is not one the build writes$/,
  },
  {
    name: 'a snapshot without one of its indexes (checksum file matching)',
    prepare: (file) => alteredCopyOfA(file, 'DROP INDEX changes_by_city'),
    refusal: /refused: format: schema: index changes_by_city is missing/,
  },
  {
    name: 'a snapshot without its checksum file',
    prepare: (file) => copyFileSync(revisions.a.file, file),
    refusal: /refused: checksum: no checksum file .*\.sqlite\.sha256/,
  },
];

describe('integrity at start-up', () => {
  const table: DamageCase[] = [...CASES, { name: 'a missing file', prepare: () => {}, refusal: /^hra: --dataset \S+start-\d+\.sqlite: snapshot file not found$/ }];
  for (const [index, testCase] of table.entries()) {
    it(`refuses ${testCase.name}: one stderr line, exit 1, nothing listening`, async () => {
      const file = join(revisions.dir, `start-${index}.sqlite`);
      testCase.prepare(file);
      const server = await spawnServe(['--dataset', file, '--keys', revisions.keysFile]);
      const exit = await server.exited;
      assert.equal(server.url, '', 'never listened');
      assert.equal(server.stdout(), '');
      assert.equal(exit.code, 1);
      const lines = server.stderr().split('\n').filter((line) => line !== '');
      assert.equal(lines.length, 1, server.stderr());
      assert.match(lines[0] ?? '', /^hra: /);
      assert.match(lines[0] ?? '', testCase.refusal);
    });
  }
});

describe('integrity on swap', () => {
  let server: ServeProcess;
  const agent = new Agent({ keepAlive: true });
  before(async () => {
    pointCurrentAt(revisions.out, revisions.a.name);
    server = await spawnServe(['--dataset', revisions.dataset, '--keys', revisions.keysFile, '--limits', revisions.limitsFile]);
  });
  after(async () => {
    agent.destroy();
    server.kill();
    await server.exited;
  });

  const assertServing = async (revision: string) => {
    const response = await get(`${server.url}/api/programs/alpha`, agent, { 'X-Api-Key': revisions.commercialKey });
    assert.equal(response.status, 200, response.body);
    assert.equal(response.revision, revision);
  };

  for (const [index, testCase] of CASES.entries()) {
    it(`refuses ${testCase.name}, logs it, and keeps serving the old revision`, async () => {
      const name = `swap-${index}.sqlite`;
      testCase.prepare(join(revisions.out, name));
      pointCurrentAt(revisions.out, name);
      server.kill('SIGHUP');
      const refusal = await server.waitForLog((line) => typeof line.reason === 'string' && line.reason.includes(name));
      assert.equal(refusal.level, 50, 'logged as an error');
      assert.equal(refusal.serving, revisions.a.revision);
      assert.match(String(refusal.reason), testCase.refusal);
      await assertServing(revisions.a.revision);
    });
  }

  it('still swaps to a good revision afterwards', async () => {
    pointCurrentAt(revisions.out, revisions.b.name);
    server.kill('SIGHUP');
    await server.waitForLog((line) => line.revision === revisions.b.revision && typeof line.previous === 'string');
    await assertServing(revisions.b.revision);
  });

  it('checks again a verified file written to in place (its ctime changed) and refuses it', async () => {
    // A was verified at start; damage it in place, then point at it.
    flipByteInServedContent(revisions.a.file);
    pointCurrentAt(revisions.out, revisions.a.name);
    server.kill('SIGHUP');
    const refusal = await server.waitForLog((line) => typeof line.reason === 'string' && line.reason.includes(revisions.a.name));
    assert.match(String(refusal.reason), /refused: content: file sha256/);
    await assertServing(revisions.b.revision);
  });
});
