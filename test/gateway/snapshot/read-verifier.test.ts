/**
 * Every kind of unit the gateway reads is checked against the digest the verified file recorded
 * (read-verifier.ts): a snapshot is opened, then the bytes of a copy edited in one place are written over
 * its file (the same inode, as a stray write would), and the one read that meets the edit fails the
 * snapshot with 503 DATASET_UNAVAILABLE and a reason naming the unit. Untouched, every read passes.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { buildAndPublish } from '../../../build/snapshot/publish-snapshot.ts';
import { changeDigestKey, digestRows, parseReadDigests, READ_DIGEST_KINDS } from '../../../build/snapshot/read-digests.ts';
import { strongEtag } from '../../../build/snapshot/strong-etag.ts';
import { ApiError } from '../../../gateway/http/api-error.ts';
import { openSnapshot, type Snapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { MINI_CORPUS } from '../../support/start-test-gateway.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

/** A change event of revision B in the operations tests, repeated with new ids and times. */
const EXTRA_EVENT = { id: 8, detectedAt: '2026-11-16T06:00:00Z', city: 'beta', programId: 'b-repair', programName: 'Beta Emergency Repair', type: 'status-changed', fromStatus: 'available', toStatus: 'waitlist' };

interface EditCase {
  name: string;
  /** SQL run on a copy of the snapshot, whose bytes then replace the served file's. */
  edit: string;
  read: (snapshot: Snapshot) => unknown;
  /** What the failure names. */
  reason: RegExp;
}

const CASES: EditCase[] = [
  {
    name: 'a fixed document\'s body',
    edit: "UPDATE documents SET body = CAST(replace(CAST(body AS TEXT), '\"datasetRevision\":\"gm1-', '\"datasetRevision\":\"gm2-') AS BLOB) WHERE name = 'sample'",
    read: (snapshot) => snapshot.document('sample'),
    reason: /document sample reads sha256/,
  },
  {
    name: 'a document\'s ETag',
    edit: "UPDATE documents SET etag = '\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"' WHERE name = 'schema'",
    read: (snapshot) => snapshot.document('schema'),
    reason: /document schema carries etag/,
  },
  {
    name: 'a city\'s collection',
    edit: "UPDATE documents SET body = CAST(replace(CAST(body AS TEXT), 'waitlist', 'waitlisT') AS BLOB) WHERE name = 'collection:alpha'",
    read: (snapshot) => snapshot.collection('alpha'),
    reason: /document collection:alpha reads sha256/,
  },
  {
    name: 'a cities row',
    edit: "UPDATE cities SET program_count = program_count + 1 WHERE slug = 'beta'",
    read: (snapshot) => snapshot.city('beta'),
    reason: /city beta reads sha256/,
  },
  {
    name: 'a cities row gone, read in the whole list',
    edit: "DELETE FROM cities WHERE slug = 'gamma'",
    read: (snapshot) => snapshot.cities(),
    reason: /cities read, \d+ verified|city gamma/,
  },
  {
    name: 'a served record\'s facets, read for a filter',
    edit: "UPDATE programs SET facets = replace(facets, 'waitlist', 'available') WHERE city = 'alpha'",
    read: (snapshot) => snapshot.cityRecords('alpha'),
    reason: /served alpha reads sha256/,
  },
  {
    name: 'a served record\'s place, read for the detail route',
    edit: "UPDATE programs SET body_offset = body_offset + 1 WHERE city = 'beta' AND id = 'b-repair'",
    read: (snapshot) => snapshot.servedRecordPlace('beta', 'b-repair'),
    reason: /served beta reads sha256/,
  },
  {
    name: 'a withheld record\'s policy',
    edit: "UPDATE withheld_programs SET policy = 'quarantined' WHERE city = 'alpha' AND id = 'a-bills'",
    read: (snapshot) => snapshot.cityRecords('alpha'),
    reason: /withheld alpha reads sha256/,
  },
  {
    name: 'a change row',
    // Change 1 lies on the first of the table's pages; the gateway read only its last at open (the newest id).
    edit: "UPDATE changes SET detected_at = '2026-10-05T06:00:01Z' WHERE id = 1",
    read: (snapshot) => snapshot.changes({ maxId: 2, beforeId: 3, limit: 2 }),
    reason: /change alpha\u00001 reads sha256/,
  },
  {
    name: 'a change row gone from a page',
    edit: 'DELETE FROM changes WHERE id = 1',
    read: (snapshot) => snapshot.changes({ maxId: 2, beforeId: 3, limit: 2 }),
    reason: /change page .* reads ids \[2\], verified \[2,1\]/,
  },
  {
    name: 'a change row gone from a city\'s page',
    edit: 'DELETE FROM changes WHERE id = 3',
    read: (snapshot) => snapshot.changes({ maxId: 7, beforeId: 7, city: 'alpha', limit: 5 }),
    reason: /change page .* reads ids \[6,1\], verified \[6,3,1\]/,
  },
];

describe('read checks: each unit read from the served file is checked against the verified file\'s digest', () => {
  let dir: string;
  let pristine: Buffer;
  before(() => {
    dir = makeTempDir('hra-read-verifier-');
    // The mini corpus with enough change events to fill several pages, so some are not read at open.
    const corpus = join(dir, 'corpus');
    cpSync(MINI_CORPUS, corpus, { recursive: true });
    const events = Array.from({ length: 60 }, (_, index) => ({ ...EXTRA_EVENT, id: 8 + index, detectedAt: `2026-11-16T06:${String(index).padStart(2, '0')}:00Z` }));
    appendFileSync(join(corpus, 'changes.ndjson'), events.map((event) => `${JSON.stringify(event)}\n`).join(''));
    pristine = readFileSync(buildAndPublish(loadCorpus(corpus), join(dir, 'out')).file);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a snapshot records a digest of every document body, cities row and change row it holds', () => {
    const db = new Database(pristine);
    try {
      const held = parseReadDigests(db.prepare('SELECT kind, keys, digests FROM read_digests').all() as Array<{ kind: string; keys: string; digests: Buffer }>);
      for (const { name, body, etag } of db.prepare('SELECT name, body, etag FROM documents').all() as Array<{ name: string; body: Buffer; etag: string }>) {
        assert.deepEqual(held.get('document', name), createHash('sha256').update(body).digest(), name);
        assert.equal(etag, strongEtag(body), name);
      }
      for (const row of db.prepare('SELECT slug, program_count, city_body, counts_body FROM cities').raw().all() as Array<[string, number, Buffer, Buffer]>) {
        assert.deepEqual(held.get('city', row[0]), digestRows([row]), row[0]);
      }
      for (const row of db.prepare('SELECT id, city, detected_at, visible, body FROM changes').raw().all() as Array<[number, string, string, number, Buffer]>) {
        assert.deepEqual(held.get('change', changeDigestKey(row[1], row[0])), digestRows([row]), String(row[0]));
      }
      for (const kind of READ_DIGEST_KINDS) assert.ok(held.count(kind) > 0, kind);
    } finally {
      db.close();
    }
  });

  it('every read of the untouched file passes its check', () => {
    const file = join(dir, 'untouched.sqlite');
    writeFileSync(file, pristine);
    const snapshot = openSnapshot(file);
    try {
      for (const { read } of CASES) read(snapshot);
      assert.equal(snapshot.failure, undefined);
    } finally {
      snapshot.close();
    }
  });

  for (const { name, edit, read, reason } of CASES) {
    it(`${name}, written over the served file after it opened: 503 DATASET_UNAVAILABLE, the snapshot failed naming it`, () => {
      const edited = join(dir, `edited-${CASES.findIndex((candidate) => candidate.name === name)}.sqlite`);
      writeFileSync(edited, pristine);
      const db = new Database(edited);
      assert.ok(db.prepare(edit).run().changes >= 1, edit);
      db.close();

      const file = join(dir, 'served.sqlite');
      writeFileSync(file, pristine);
      const snapshot = openSnapshot(file);
      try {
        writeFileSync(file, readFileSync(edited));
        assert.throws(() => read(snapshot), (error: unknown) => error instanceof ApiError && error.status === 503 && error.code === 'DATASET_UNAVAILABLE');
        assert.match(snapshot.failure ?? '', /no longer holds the bytes that were verified/);
        assert.match(snapshot.failure ?? '', reason);
        assert.throws(() => snapshot.document('schema'), (error: unknown) => error instanceof ApiError && error.status === 503, 'a failed snapshot reads nothing again');
      } finally {
        snapshot.close();
      }
    });
  }
});
