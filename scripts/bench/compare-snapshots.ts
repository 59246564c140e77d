/**
 * Compares two published snapshots of the same corpus, built by two trees (issue 25: a faster build must
 * write the same content). Every table, every row, every cell, byte for byte, with one allowance: when the
 * two revisions differ (a change to build/derive or build/contract changes the `enrichment` digest and so
 * the revision, docs/auditors.md "The revision"), each occurrence of A's revision string in A's cells is read as B's
 * (they have the same length, so offsets stay valid), and what depends on those bytes is checked in each
 * file on its own instead of across them: every document's etag is the strong ETag of its own body, the
 * content digest is the digest of its own file, and the revision documents differ in `enrichment` only.
 * When the revisions are equal, the snapshot files and their `.sha256` and `.segments` files must be
 * identical bytes.
 *
 *   node --import tsx scripts/bench/compare-snapshots.ts <a.sqlite> <b.sqlite>
 *
 * Prints one line per table and a verdict; exits 1 on any difference.
 */
import { readFileSync, realpathSync } from 'node:fs';
import Database from 'better-sqlite3';
import { computeContentDigest } from '../../build/snapshot/content-digest.ts';
import { strongEtag } from '../../build/snapshot/strong-etag.ts';

/** What comparing two snapshots found. */
export interface SnapshotComparison {
  sameRevision: boolean;
  /** One line per table: its rows and how many cells matched only once the revision was substituted. */
  tables: string[];
  /** Every difference found (at most 20 listed), empty when the content is the same. */
  differences: string[];
}

const MAX_LISTED = 20;

/** Compares the snapshots at `fileA` and `fileB` (see the module comment). */
export function compareSnapshots(pathA: string, pathB: string): SnapshotComparison {
  // `current.sqlite` is a link; the side files sit beside the file it names.
  const fileA = realpathSync(pathA);
  const fileB = realpathSync(pathB);
  const a = new Database(fileA, { readonly: true, fileMustExist: true });
  const b = new Database(fileB, { readonly: true, fileMustExist: true });
  const differences: string[] = [];
  const differ = (message: string) => {
    if (differences.length < MAX_LISTED) differences.push(message);
    else if (differences.length === MAX_LISTED) differences.push('... (more differences not listed)');
  };
  try {
    const revisionOf = (db: Database.Database) => db.prepare("SELECT value FROM meta WHERE key = 'revision'").pluck().get() as string;
    const revisionA = revisionOf(a);
    const revisionB = revisionOf(b);
    const sameRevision = revisionA === revisionB;
    const fromA = Buffer.from(revisionA, 'utf8');
    const toB = Buffer.from(revisionB, 'utf8');
    if (fromA.length !== toB.length) differ(`revisions differ in length: ${revisionA} ${revisionB}`);

    const schemaOf = (db: Database.Database) => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").raw().all();
    if (JSON.stringify(schemaOf(a)) !== JSON.stringify(schemaOf(b))) differ('sqlite_master differs (tables, indexes or their SQL)');
    for (const pragma of ['application_id', 'user_version', 'page_size', 'journal_mode']) {
      if (a.pragma(pragma, { simple: true }) !== b.pragma(pragma, { simple: true })) differ(`PRAGMA ${pragma} differs`);
    }

    const tables = (a.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]);
    const lines: string[] = [];
    for (const table of tables) {
      const columns = (a.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).pluck().all(table) as string[]);
      // Every column in the ORDER BY: a total order whatever the table's key, the same in both files.
      const sql = `SELECT * FROM "${table}" ORDER BY ${columns.map((column) => `"${column}"`).join(', ')}`;
      const rowsA = a.prepare(sql).raw().iterate() as IterableIterator<unknown[]>;
      const rowsB = b.prepare(sql).raw().iterate() as IterableIterator<unknown[]>;
      let rows = 0;
      let substituted = 0;
      for (;;) {
        const nextA = rowsA.next();
        const nextB = rowsB.next();
        if (nextA.done || nextB.done) {
          if (!nextA.done || !nextB.done) differ(`${table}: ${nextA.done ? 'A' : 'B'} has fewer rows (${rows} in common)`);
          if (!nextA.done) rowsA.return?.();
          if (!nextB.done) rowsB.return?.();
          break;
        }
        rows += 1;
        const rowA = nextA.value;
        const rowB = nextB.value;
        const key = `${table} row ${rows} (${String(rowA[0]).slice(0, 60)})`;
        for (let index = 0; index < columns.length; index++) {
          const column = columns[index]!;
          const cellA = rowA[index];
          const cellB = rowB[index];
          if (sameCell(cellA, cellB)) continue;
          if (!sameRevision && sameCell(substitute(cellA, fromA, toB), cellB)) {
            substituted += 1;
            continue;
          }
          if (!sameRevision && isOwnDerived(table, column, rowA)) {
            substituted += 1;
            continue;
          }
          differ(`${key}: column ${column} differs`);
        }
        if (table === 'documents') {
          // Whatever the revisions, each etag must be its own body's.
          if (rowA[2] !== strongEtag(rowA[1] as Buffer)) differ(`${key}: A's etag is not its body's`);
          if (rowB[2] !== strongEtag(rowB[1] as Buffer)) differ(`${key}: B's etag is not its body's`);
        }
      }
      lines.push(`${table}: ${rows} rows${sameRevision ? '' : `, ${substituted} cells equal once A's revision reads as B's`}`);
    }

    const digestOf = (db: Database.Database) => db.prepare("SELECT value FROM meta WHERE key = 'content_digest'").pluck().get() as string;
    if (digestOf(a) !== computeContentDigest(a)) differ("A's content_digest is not its content's");
    if (digestOf(b) !== computeContentDigest(b)) differ("B's content_digest is not its content's");
    const documentOf = (db: Database.Database) => JSON.parse(db.prepare("SELECT value FROM meta WHERE key = 'revision_document'").pluck().get() as string) as Record<string, unknown>;
    const documentA = documentOf(a);
    const documentB = documentOf(b);
    const members = new Set([...Object.keys(documentA), ...Object.keys(documentB)]);
    const changedMembers = [...members].filter((member) => JSON.stringify(documentA[member]) !== JSON.stringify(documentB[member]));
    if (changedMembers.some((member) => member !== 'enrichment')) differ(`revision documents differ in ${changedMembers.join(', ')}`);
    if (!sameRevision && changedMembers.length === 0) differ('revisions differ but their documents do not');
    lines.push(`revision: ${sameRevision ? `the same, ${revisionA}` : `A ${revisionA}, B ${revisionB}; documents differ in ${changedMembers.join(', ') || 'nothing'}`}`);

    if (sameRevision) {
      for (const suffix of ['', '.sha256', '.segments']) {
        if (!readFileSync(fileA + suffix).equals(readFileSync(fileB + suffix))) differ(`file${suffix || ' itself'} differs byte for byte`);
      }
      lines.push('files: the .sqlite, .sha256 and .segments files compared byte for byte');
    }
    return { sameRevision, tables: lines, differences };
  } finally {
    a.close();
    b.close();
  }
}

function sameCell(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  return a === b;
}

/** `cell` with every occurrence of `from` replaced by `to` (same length); other cells as they are. */
function substitute(cell: unknown, from: Buffer, to: Buffer): unknown {
  if (typeof cell === 'string') return cell.replaceAll(from.toString('utf8'), to.toString('utf8'));
  if (!Buffer.isBuffer(cell)) return cell;
  let at = cell.indexOf(from);
  if (at < 0) return cell;
  const copy = Buffer.from(cell);
  while (at >= 0) {
    to.copy(copy, at);
    at = copy.indexOf(from, at + from.length);
  }
  return copy;
}

/**
 * Cells computed from other bytes of their own file that hold the revision, checked in each file on its
 * own (etags against their bodies, the content digest and the revision document above).
 */
function isOwnDerived(table: string, column: string, row: unknown[]): boolean {
  if (table === 'documents' && column === 'etag') return true;
  return table === 'meta' && column === 'value' && (row[0] === 'content_digest' || row[0] === 'revision_document');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [fileA, fileB] = process.argv.slice(2);
  if (fileA === undefined || fileB === undefined) {
    process.stderr.write('usage: compare-snapshots.ts <a.sqlite> <b.sqlite>\n');
    process.exit(2);
  }
  const result = compareSnapshots(fileA, fileB);
  for (const line of result.tables) process.stdout.write(`${line}\n`);
  for (const line of result.differences) process.stdout.write(`DIFFERENT: ${line}\n`);
  process.stdout.write(result.differences.length === 0 ? 'same content\n' : 'content differs\n');
  process.exit(result.differences.length === 0 ? 0 : 1);
}
