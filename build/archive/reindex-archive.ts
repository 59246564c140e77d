/**
 * `hra archive reindex`: rebuilds index.sqlite from the WARC files alone. Every record of every closed file under
 * warc/ becomes the row its writer indexed (id, type, URI, date, where its gzip member lies, payload digest, the
 * record it refers to or was sent with); a file's warcinfo record is read and not indexed, as the writer does.
 * The rows go into a new file beside the index, which replaces it in one rename once whole: a reindex killed
 * midway leaves the old index as it was.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync, truncateSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { WARCParser } from 'warcio';
import { acquireArchiveLock } from './archive-lock.ts';
import { ARCHIVE_RECORD_TYPES, ArchiveIndexSchemaError, type ArchiveIndexRow, type ArchiveRecordType, openArchiveIndex, readOlderSchemaRows } from './archive-index.ts';
import { PRUNE_JOURNAL, recoverInterruptedPrune, undoInterruptedPrune } from './apply-archive-prune.ts';
import { hexOfWarcPayloadDigest } from './payload-digest.ts';
import { fsyncPath } from './fsync-path.ts';
import { PRUNE_LOCK_WAIT_MS } from './prune-archive.ts';
import { isProcessAlive, type SealedFile, sealTornTails } from './seal-torn-tails.ts';
import { ARCHIVE_INDEX_FILE, ARCHIVE_WARC_DIR, OPEN_WARC_SUFFIX, archiveRelativePath, pidOfWarcFile } from './warc-archive-layout.ts';

/** The rebuilt index's name until it replaces index.sqlite. */
export const REINDEX_FILE = `${ARCHIVE_INDEX_FILE}.reindex`;

/** A WARC file that cannot be indexed as the writer wrote it; the message names the file and the offset. */
export class ReindexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReindexError';
  }
}

/** What reindexArchive needs. */
export interface ReindexArchiveOptions {
  readonly archiveDir: string;
  /** Whether a writer's process still runs (default: signal 0 to the pid in its file name). */
  readonly isProcessAlive?: (pid: number) => boolean;
  /** How long to wait for the archive's lock before refusing (default: a prune's wait). */
  readonly lockWaitMs?: number;
  readonly progress?: (message: string) => void;
}

/** How the rebuilt index compares with the one it replaced (absent when there was none). */
export interface ReindexComparison {
  readonly previousRows: number;
  /** Rows of the old index no file holds as indexed, by record id (the first 20). */
  readonly missing: readonly string[];
  readonly missingCount: number;
  /** Rows of the new index the old one lacked or held otherwise, by record id (the first 20). */
  readonly changed: readonly string[];
  readonly changedCount: number;
}

/** What a reindex did. */
export interface ReindexSummary {
  readonly files: number;
  readonly rows: number;
  /** `.open` files of finished writers closed first (cut back to their last whole record). */
  readonly sealed: readonly SealedFile[];
  /** What was done about a killed prune's journal, if there was one. */
  readonly recovered: string | undefined;
  readonly comparison: ReindexComparison | undefined;
}

/** Rebuilds the archive's index (see the file head); the archive folder must exist. */
export async function reindexArchive(options: ReindexArchiveOptions): Promise<ReindexSummary> {
  // Alone, as a prune is: no writer may append, and no prune move records, while the files are read.
  const release = acquireArchiveLock(options.archiveDir, { purpose: 'archive reindex', mode: 'exclusive', waitMs: options.lockWaitMs ?? PRUNE_LOCK_WAIT_MS });
  try {
    return await reindexLocked(options);
  } finally {
    release();
  }
}

async function reindexLocked(options: ReindexArchiveOptions): Promise<ReindexSummary> {
  const { archiveDir } = options;
  const alive = options.isProcessAlive ?? isProcessAlive;
  const live = openFiles(archiveDir).map((file) => pidOfWarcFile(file)).find((pid) => pid !== undefined && pid !== process.pid && alive(pid));
  if (live !== undefined) throw new ReindexError(`--archive ${archiveDir}: a WARC file is being written by process ${live} (a links check?); nothing was reindexed; reindex once it has finished`);
  const { sealed, recovered, previous } = await settle(archiveDir, alive, options.progress);
  const temporary = join(archiveDir, REINDEX_FILE);
  removeDatabase(temporary);
  const rebuilt = openArchiveIndex(archiveDir, { fileName: REINDEX_FILE });
  let rows = 0;
  const files = closedFiles(archiveDir);
  try {
    for (const [done, file] of files.entries()) {
      const fileRows = await indexFile(archiveDir, file);
      rebuilt.insert(fileRows);
      rows += fileRows.length;
      if ((done + 1) % 50 === 0) options.progress?.(`archive reindex: ${done + 1}/${files.length} files, ${rows} records`);
    }
    rebuilt.database.pragma('wal_checkpoint(TRUNCATE)');
    rebuilt.database.pragma('journal_mode = DELETE');
  } catch (error) {
    rebuilt.close();
    removeDatabase(temporary);
    throw error instanceof Error && error.message.startsWith('UNIQUE constraint failed') ? new ReindexError(`--archive ${archiveDir}: a record id is written twice in the files; nothing was reindexed`) : error;
  }
  const comparison = previous === undefined ? undefined : compare(previous, rebuilt.allRows());
  rebuilt.close();
  fsyncPath(temporary);
  renameSync(temporary, join(archiveDir, ARCHIVE_INDEX_FILE));
  fsyncPath(archiveDir);
  return { files: files.length, rows, sealed, recovered, comparison };
}

/**
 * Before the files are read: a killed prune's step finished or undone, and the `.open` files of finished writers
 * sealed, by the old index when there is one (it knows where each file's indexed records end), else each cut
 * back to its last whole record. The old index's rows are kept to compare with.
 */
async function settle(archiveDir: string, alive: (pid: number) => boolean, progress: ((message: string) => void) | undefined): Promise<{ sealed: SealedFile[]; recovered: string | undefined; previous: ArchiveIndexRow[] | undefined }> {
  const indexPath = join(archiveDir, ARCHIVE_INDEX_FILE);
  // An index of an older schema cannot seal files (this hra does not write it), but its rows are compared with.
  let olderSchemaRows: ArchiveIndexRow[] | undefined;
  if (existsSync(indexPath)) {
    let index;
    try {
      index = openArchiveIndex(archiveDir);
      index.allRows();
    } catch (error) {
      index?.close();
      index = undefined;
      const older = error instanceof ArchiveIndexSchemaError && error.schema !== 'newer' ? error.schema : undefined;
      olderSchemaRows = older === undefined ? undefined : olderSchemaRowsOrNone(indexPath);
      if (olderSchemaRows !== undefined) {
        progress?.(`archive reindex: the old ${ARCHIVE_INDEX_FILE} is of ${older === 'first' ? 'the first schema' : 'an older schema'}; rebuilding it from the files, to compare with its ${olderSchemaRows.length} rows`);
      } else {
        progress?.(`archive reindex: the old ${ARCHIVE_INDEX_FILE} cannot be read (${(error as Error).message}); rebuilding from the files alone`);
      }
    }
    if (index !== undefined) {
      try {
        const recovered = recoverInterruptedPrune(archiveDir, index.database);
        const sealed = sealTornTails(archiveDir, index, { isProcessAlive: alive });
        const previous = index.allRows();
        // Every committed page in the index file itself, so that no WAL of the old index outlives its rename.
        index.database.pragma('wal_checkpoint(TRUNCATE)');
        return { sealed, recovered, previous };
      } finally {
        index.close();
      }
    }
  }
  const recovered = existsSync(join(archiveDir, PRUNE_JOURNAL)) ? undoInterruptedPrune(archiveDir) : undefined;
  const sealed: SealedFile[] = [];
  for (const path of openFiles(archiveDir)) {
    const closed = path.slice(0, -OPEN_WARC_SUFFIX.length);
    const file = archiveRelativePath(archiveDir, closed);
    const end = await wholeRecordsEnd(path);
    const size = statSync(path).size;
    if (end === 0) {
      rmSync(path);
      sealed.push({ file, cutBytes: size, removed: true });
      continue;
    }
    if (size > end) truncateSync(path, end);
    renameSync(path, closed);
    sealed.push({ file, cutBytes: size - end, removed: false });
  }
  return { sealed, recovered, previous: olderSchemaRows };
}

/** The rows of an index of an older schema, or undefined when they cannot be read (the files alone then decide). */
function olderSchemaRowsOrNone(indexPath: string): ArchiveIndexRow[] | undefined {
  try {
    return readOlderSchemaRows(indexPath);
  } catch {
    return undefined;
  }
}

/** The rows of one closed file, in file order. */
async function indexFile(archiveDir: string, file: string): Promise<ArchiveIndexRow[]> {
  const rows: ArchiveIndexRow[] = [];
  const stream = createReadStream(join(archiveDir, file));
  let at = 0;
  let end = 0;
  try {
    const parser = new WARCParser(stream, { keepHeadersCase: true });
    for await (const record of parser) {
      at = parser.offset;
      await record.skipFully();
      end = parser.offset + parser.recordLength;
      const headers = record.warcHeaders.headers;
      const type = record.warcType;
      const recordId = headers.get('WARC-Record-ID');
      if (type === 'warcinfo') continue;
      if (!isArchiveType(type)) throw new ReindexError(`${file}: the record at offset ${at} is a ${type ?? '(typeless)'} record, which the archive never writes`);
      if (!recordId) throw new ReindexError(`${file}: the record at offset ${at} has no WARC-Record-ID`);
      const warcDate = headers.get('WARC-Date');
      const targetUri = record.warcTargetURI;
      if (!warcDate || !targetUri) throw new ReindexError(`${file}: record ${recordId} (offset ${at}) lacks ${warcDate ? 'WARC-Target-URI' : 'WARC-Date'}`);
      let payloadSha256: string | null = null;
      if (type !== 'request') {
        payloadSha256 = hexOfWarcPayloadDigest(headers.get('WARC-Payload-Digest') ?? '') ?? null;
        if (payloadSha256 === null) throw new ReindexError(`${file}: record ${recordId} (offset ${at}) has no sha256 WARC-Payload-Digest`);
      }
      rows.push({
        recordId, type, targetUri, warcDate, file, offset: at, length: parser.recordLength, payloadSha256,
        refersTo: type === 'revisit' ? headers.get('WARC-Refers-To') ?? null : null,
        concurrentTo: type === 'request' ? headers.get('WARC-Concurrent-To') ?? null : null,
      });
    }
  } catch (error) {
    if (error instanceof ReindexError) throw error;
    throw new ReindexError(`${file}: cannot be read as WARC after offset ${at} (${(error as Error).message}); nothing was reindexed`);
  } finally {
    stream.destroy();
  }
  // warcio stops without a word at bytes that begin no record: a file is indexed only when it is records to its end.
  const size = statSync(join(archiveDir, file)).size;
  if (end !== size) throw new ReindexError(`${file}: cannot be read as WARC after offset ${end} (${size - end} bytes that are no whole record); nothing was reindexed`);
  return rows;
}

/** The end of the last record of an `.open` file that parses whole: where a torn tail begins. */
async function wholeRecordsEnd(path: string): Promise<number> {
  const stream = createReadStream(path);
  let end = 0;
  try {
    const parser = new WARCParser(stream);
    for await (const record of parser) {
      await record.skipFully();
      end = parser.offset + parser.recordLength;
    }
  } catch {
    // The torn tail: what parsed before it stands.
  } finally {
    stream.destroy();
  }
  return end;
}

function compare(previous: readonly ArchiveIndexRow[], rebuilt: readonly ArchiveIndexRow[]): ReindexComparison {
  const byId = new Map(rebuilt.map((row) => [row.recordId, row]));
  const before = new Map(previous.map((row) => [row.recordId, row]));
  const missing = previous.filter((row) => !byId.has(row.recordId)).map((row) => row.recordId);
  const changed = rebuilt.filter((row) => {
    const old = before.get(row.recordId);
    return old === undefined || JSON.stringify(old) !== JSON.stringify(row);
  }).map((row) => row.recordId);
  return { previousRows: previous.length, missing: missing.slice(0, 20), missingCount: missing.length, changed: changed.slice(0, 20), changedCount: changed.length };
}

function isArchiveType(type: string | null | undefined): type is ArchiveRecordType {
  return (ARCHIVE_RECORD_TYPES as readonly (string | null | undefined)[]).includes(type);
}

function walk(archiveDir: string, suffix: string): string[] {
  const root = join(archiveDir, ARCHIVE_WARC_DIR);
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function closedFiles(archiveDir: string): string[] {
  return walk(archiveDir, '.warc.gz').map((path) => archiveRelativePath(archiveDir, path)).sort();
}

function openFiles(archiveDir: string): string[] {
  return walk(archiveDir, `.warc.gz${OPEN_WARC_SUFFIX}`);
}

function removeDatabase(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
}
