/**
 * What a verified read costs a cache miss (BENCHMARKS.md, "Verified reads"): for the largest document of a
 * snapshot, its largest collection, a detail lookup and a change page, the microseconds per read of the
 * plain SQLite read the gateway made before format 5 beside the same read checked as the gateway checks it
 * now (gateway/snapshot/read-verifier.ts), and what holding the digests costs at open.
 *
 *   node --expose-gc <hra's node flags> scripts/bench/verified-read-cost.ts <snapshot file> [reads per case]
 *
 * Prints one line per case on stdout: the case, its bytes, and µs per plain read, per check alone, and per both.
 */
import Database from 'better-sqlite3';
import { parseReadDigests } from '../../build/snapshot/read-digests.ts';
import { createReadVerifier } from '../../gateway/snapshot/read-verifier.ts';

const [file, readsArgument] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: verified-read-cost.ts <snapshot file> [reads per case]');
const reads = Number(readsArgument ?? 2000);

const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma('locking_mode = EXCLUSIVE');
// The heap the held digests take is measured only when run with --expose-gc (a collection on each side).
const collect = (globalThis as { gc?: () => void }).gc;
collect?.();
const heapBefore = process.memoryUsage();
const openStarted = performance.now();
const held = parseReadDigests(db.prepare('SELECT kind, keys, digests FROM read_digests').all() as Array<{ kind: string; keys: string; digests: Buffer }>);
const openMs = performance.now() - openStarted;
collect?.();
const heapAfter = process.memoryUsage();
const heldMb = collect === undefined ? 'unmeasured (run with --expose-gc)' : `${((heapAfter.heapUsed + heapAfter.arrayBuffers - heapBefore.heapUsed - heapBefore.arrayBuffers) / 1e6).toFixed(1)} MB`;
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

/** Microseconds per call of `run`, after a warm-up: the fastest of seven rounds, the least disturbed on a shared machine. */
function microsPerCall(run: () => unknown): number {
  for (let i = 0; i < Math.min(reads, 200); i++) run();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 7; round++) {
    const started = performance.now();
    for (let i = 0; i < reads; i++) run();
    best = Math.min(best, ((performance.now() - started) * 1000) / reads);
  }
  return best;
}

type ServedRow = { id: string; facets: string; offset: number; length: number };
type ChangeRow = { id: number; city: string; detectedAt: string; visible: number; body: Buffer };
/** Each case: the plain read, and the check the gateway now runs on what it read. */
interface Case<T> { name: string; bytes: number; read: () => T; check: (read: T) => unknown }
const caseOf = <T>(c: Case<T>) => c as Case<unknown>;
const cases = [
  caseOf({
    name: `document ${largest.name} (the largest body; a fixed document, read once per snapshot)`,
    bytes: largest.bytes,
    read: () => documentQuery.get(largest.name) as { body: Buffer; etag: string },
    check: (row) => verify.document(largest.name, row),
  }),
  caseOf({
    name: `document ${collection.name} (the largest collection)`,
    bytes: collection.bytes,
    read: () => documentQuery.get(collection.name) as { body: Buffer; etag: string },
    check: (row) => verify.document(collection.name, row),
  }),
  caseOf({
    name: `detail place of ${city}/${record} (before: one row; now the city's rows, checked once per city, then kept)`,
    bytes: 0,
    read: () => servedQuery.all(city) as ServedRow[],
    check: (rows) => verify.rows('served', city, rows.map((row) => [row.id, row.facets, row.offset, row.length])),
  }),
  caseOf({
    name: 'change page of 100',
    bytes: 0,
    read: () => changesQuery.all(maxId, maxId + 1, 100) as ChangeRow[],
    check: (rows) => verify.changes({ maxId, beforeId: maxId + 1, limit: 100 }, rows),
  }),
];
const onePlace = microsPerCall(() => placeQuery.get(city, record));

process.stdout.write(`read_digests parsed at open in ${openMs.toFixed(1)} ms, held in ${heldMb} (${['document', 'city', 'served', 'withheld', 'change'].map((kind) => `${held.count(kind as 'document')} ${kind}`).join(', ')})\n`);
process.stdout.write('case\tbytes\tplain read µs\tcheck µs\tread + check µs\n');
for (const { name, bytes, read, check } of cases) {
  const once = read();
  const plainMicros = microsPerCall(read);
  const checkMicros = microsPerCall(() => check(once));
  const bothMicros = microsPerCall(() => check(read()));
  process.stdout.write(`${name}\t${bytes}\t${plainMicros.toFixed(1)}\t${checkMicros.toFixed(1)}\t${bothMicros.toFixed(1)}\n`);
}
process.stdout.write(`the one-row place lookup the detail route made before: ${onePlace.toFixed(1)} µs\n`);
db.close();
