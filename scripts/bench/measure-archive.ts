/** What an evidence archive holds, for the links benchmark: bytes on disk, and records and gzip bytes per WARC type. */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ARCHIVE_RECORD_TYPES, type ArchiveRecordType, openArchiveIndex } from '../../build/archive/archive-index.ts';
import { ARCHIVE_INDEX_FILE } from '../../build/archive/warc-archive-layout.ts';

/** An archive's size, split the ways the benchmark reports it. */
export interface ArchiveFigures {
  /** Bytes of every WARC file (the index's `length` summed: the files hold nothing else once closed). */
  warcBytes: number;
  indexBytes: number;
  files: number;
  byType: Record<ArchiveRecordType, { records: number; bytes: number; payloadBytes?: number }>;
}

/** Measures the archive at `dir` (all zeros when there is none). */
export function measureArchive(dir: string): ArchiveFigures {
  const empty = () => Object.fromEntries(ARCHIVE_RECORD_TYPES.map((type) => [type, { records: 0, bytes: 0 }])) as ArchiveFigures['byType'];
  if (!existsSync(join(dir, ARCHIVE_INDEX_FILE))) return { warcBytes: 0, indexBytes: 0, files: 0, byType: empty() };
  const index = openArchiveIndex(dir, { readonly: true });
  try {
    const byType = empty();
    const rows = index.database.prepare('SELECT type, COUNT(*) AS records, SUM(length) AS bytes FROM records GROUP BY type').all() as Array<{ type: ArchiveRecordType; records: number; bytes: number }>;
    for (const row of rows) byType[row.type] = { records: row.records, bytes: row.bytes };
    const files = index.listFiles();
    const warcBytes = files.reduce((sum, file) => sum + statSync(join(dir, file)).size, 0);
    const indexBytes = ['', '-wal', '-shm'].reduce((sum, suffix) => sum + (existsSync(join(dir, ARCHIVE_INDEX_FILE + suffix)) ? statSync(join(dir, ARCHIVE_INDEX_FILE + suffix)).size : 0), 0);
    return { warcBytes, indexBytes, files: files.length, byType };
  } finally {
    index.close();
  }
}
