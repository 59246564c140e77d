/**
 * Checks a revisit record's own gzip member as the index places it (its id, type, the response it repeats and
 * the digest it carries) without reading that response again: verify hashes each response once, however
 * many weekly revisits repeat it.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { WARCParser } from 'warcio';
import type { ArchiveIndexRow } from './archive-index.ts';
import { hexOfWarcPayloadDigest } from './payload-digest.ts';
import { ArchiveRecordError } from './read-archived-record.ts';
import { OPEN_WARC_SUFFIX } from './warc-archive-layout.ts';

/** Rejects with an ArchiveRecordError naming file and record when the revisit's member is not what the index says. */
export async function checkRevisitRecord(archiveDir: string, row: ArchiveIndexRow): Promise<void> {
  const fail = (problem: string) => new ArchiveRecordError(row.file, row.recordId, problem);
  let handle;
  try {
    handle = await open(join(archiveDir, row.file), 'r');
  } catch {
    // A file being written is indexed under its closed name.
    handle = await open(join(archiveDir, row.file + OPEN_WARC_SUFFIX), 'r').catch(() => {
      throw fail('file is missing');
    });
  }
  const member = Buffer.alloc(row.length);
  try {
    const { bytesRead } = await handle.read(member, 0, row.length, row.offset);
    if (bytesRead !== row.length) throw fail(`file ends at ${row.offset + bytesRead}, before the indexed end ${row.offset + row.length}`);
  } finally {
    await handle.close();
  }
  let headers: Map<string, string>;
  try {
    const record = await new WARCParser([gunzipSync(member)]).parse();
    if (!record) throw new Error('no WARC record');
    headers = new Map([...record.warcHeaders.headers].map(([name, value]) => [name.toLowerCase(), value]));
  } catch (error) {
    throw fail(`not a WARC record at offset ${row.offset}: ${(error as Error).message}`);
  }
  const id = headers.get('warc-record-id');
  if (id !== row.recordId) throw fail(`offset ${row.offset} holds record ${id ?? '(none)'}`);
  if (headers.get('warc-type') !== 'revisit') throw fail(`indexed as revisit, written as ${headers.get('warc-type') ?? '(none)'}`);
  if (headers.get('warc-refers-to') !== row.refersTo) throw fail(`written as repeating ${headers.get('warc-refers-to') ?? '(none)'}, indexed as repeating ${row.refersTo ?? '(none)'}`);
  const digest = hexOfWarcPayloadDigest(headers.get('warc-payload-digest') ?? '');
  if (digest !== row.payloadSha256) throw fail(`written with payload digest ${digest ?? '(none)'}, indexed with ${row.payloadSha256 ?? '(none)'}`);
}
