/**
 * Edits one record's payload inside an archive's WARC file, as a tamperer would: the gzip member is
 * rewritten and the index follows it, but the digests stay as written (the edit the checks must catch).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { openArchiveIndex } from '../../build/archive/archive-index.ts';

/** Replaces `from` by `to` (same byte length) in the record's member; later members of the file move with it. */
export function editArchivedPayload(archive: string, recordId: string, from: string, to: string): void {
  if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('the edit must keep the payload length, or Content-Length gives it away first');
  const index = openArchiveIndex(archive);
  try {
    const row = index.byRecordId(recordId);
    if (row === undefined) throw new Error(`no record ${recordId}`);
    const path = join(archive, row.file);
    const bytes = readFileSync(path);
    const member = gunzipSync(bytes.subarray(row.offset, row.offset + row.length)).toString('latin1');
    const fromLatin1 = Buffer.from(from).toString('latin1');
    if (!member.includes(fromLatin1)) throw new Error(`record ${recordId} does not hold ${JSON.stringify(from)}`);
    const edited = gzipSync(Buffer.from(member.replace(fromLatin1, Buffer.from(to).toString('latin1')), 'latin1'));
    writeFileSync(path, Buffer.concat([bytes.subarray(0, row.offset), edited, bytes.subarray(row.offset + row.length)]));
    const shift = edited.length - row.length;
    index.database.prepare('UPDATE records SET length = ? WHERE record_id = ?').run(edited.length, recordId);
    index.database.prepare('UPDATE records SET offset = offset + ? WHERE file = ? AND offset > ?').run(shift, row.file, row.offset);
  } finally {
    index.close();
  }
}
