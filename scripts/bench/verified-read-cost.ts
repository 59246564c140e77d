/**
 * What a verified read costs a cache miss (BENCHMARKS.md, "Verified reads"): for the largest document of a
 * snapshot, its largest collection, a detail lookup and a change page, the microseconds per read of the
 * plain SQLite read the gateway made before format 5 beside the same read checked as the gateway checks it
 * now (gateway/snapshot/read-verifier.ts), and what holding the digests costs at open.
 *
 *   node <hra's node flags> scripts/bench/verified-read-cost.ts <snapshot file> [reads per case]
 *
 * Prints one line per case on stdout: `case bytes plain-µs verified-µs added-µs`.
 */
import Database from 'better-sqlite3';
import { parseReadDigests } from '../../build/snapshot/read-digests.ts';
import { createReadVerifier } from '../../gateway/snapshot/read-verifier.ts';

const [file, readsArgument] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: verified-read-cost.ts <snapshot file> [reads per case]');
const reads = Number(readsArgument ?? 2000);

const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma('locking_mode = EXCLUSIVE');
const openStarted = performance.now();
const held = parseReadDigests(db.prepare('SELECT kind, keys, digests FROM read_digests').all() as Array<{ kind: string; keys: string; digests: Buffer }>);
const openMs = performance.now() - openStarted;
const verify = createReadVerifier(held, file);

const documentQuery = db.prepare('SELECT body, etag FROM documents WHERE name = ?');
const servedQuery = db.prepare('SELECT id, facets, body_offset AS offset, body_length AS length FROM programs WHERE city = ? ORDER BY ord');
const placeQuery = db.prepare('SELECT body_offset AS offset, body_length AS length FROM programs WHERE city = ? AND id = ?');
const changesQuery = db.prepare('SELECT id, city, detected_at AS detectedAt, visible, body FROM changes WHERE id <= ? AND id < ? ORDER BY id DESC LIMIT ?');

const largest = db.prepare('SELECT name, length(body) AS bytes FROM documents ORDER BY bytes DESC LIMIT 1').get() as { name: string; bytes: number };
const collection = db.prepare("SELECT name, length(body) AS bytes FROM documents WHERE name LIKE 'collection:%' ORDER BY bytes DESC LIMIT 1").get() as { name: string; bytes: number };
const city = collection.name.slice('collection:'.length);
const record = db.prepare('SELECT id FROM programs WHERE city = ? ORDER BY ord DESC LIMIT 1').pluck().get(city) as string;
const maxId = db.prepare('SELECT max(id) FROM changes').pluck().get() as number;

/** Microseconds per call of `run`, after a warm-up, as the median of five rounds. */
function microsPerCall(run: () => unknown): number {
  for (let i = 0; i < Math.min(reads, 200); i++) run();
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    for (let i = 0; i < reads; i++) run();
    rounds.push(((performance.now() - started) * 1000) / reads);
  }
  return rounds.sort((a, b) => a - b)[2] ?? Number.NaN;
}

const cases: Array<{ name: string; bytes: number; plain: () => unknown; verified: () => unknown }> = [
  {
    name: `document ${largest.name} (the largest body)`,
    bytes: largest.bytes,
    plain: () => documentQuery.get(largest.name),
    verified: () => verify.document(largest.name, documentQuery.get(largest.name) as { body: Buffer; etag: string }),
  },
  {
    name: `document ${collection.name} (the largest collection)`,
    bytes: collection.bytes,
    plain: () => documentQuery.get(collection.name),
    verified: () => verify.document(collection.name, documentQuery.get(collection.name) as { body: Buffer; etag: string }),
  },
  {
    name: `detail place of ${city}/${record} (one row before; now the city's rows, checked once per city and kept)`,
    bytes: 0,
    plain: () => placeQuery.get(city, record),
    verified: () => {
      const rows = servedQuery.all(city) as Array<{ id: string; facets: string; offset: number; length: number }>;
      verify.rows('served', city, rows.map((row) => [row.id, row.facets, row.offset, row.length]));
      return rows.find((row) => row.id === record);
    },
  },
  {
    name: 'change page of 100',
    bytes: 0,
    plain: () => changesQuery.all(maxId, maxId + 1, 100),
    verified: () => {
      for (const row of changesQuery.all(maxId, maxId + 1, 100) as Array<{ id: number; city: string; detectedAt: string; visible: number; body: Buffer }>) {
        verify.rows('change', row.id, [[row.id, row.city, row.detectedAt, row.visible, row.body]]);
      }
    },
  },
];

process.stdout.write(`read_digests parsed at open in ${openMs.toFixed(1)} ms (${['document', 'city', 'served', 'withheld', 'change'].map((kind) => `${held.count(kind as 'document')} ${kind}`).join(', ')})\n`);
for (const { name, bytes, plain, verified } of cases) {
  const plainMicros = microsPerCall(plain);
  const verifiedMicros = microsPerCall(verified);
  process.stdout.write(`${name}\t${bytes}\t${plainMicros.toFixed(1)}\t${verifiedMicros.toFixed(1)}\t${(verifiedMicros - plainMicros).toFixed(1)}\n`);
}
db.close();
