// The warcinfo record each WARC file begins with: which software wrote the records that follow, in which format,
// and whom to write to about them. It names no file (no WARC-Filename), so a prune that rewrites a file's kept
// records into a new one copies it as it is and it stays true.
import { createHash, randomUUID } from 'node:crypto';
import { WARCRecord, WARCSerializer, WARC_1_1 } from 'warcio';
import { gzipWarcMember } from './gzip-warc-member.ts';
import { warcPayloadDigest } from './payload-digest.ts';

/** What a warcinfo record says about the writer. */
export interface WarcInfo {
  /** Name and version of the software, `name/version` (the WARC 1.1 `software` field). */
  readonly software: string;
  /** How the operator can be reached, a URL or an address (the `operator` field); omitted when unknown. */
  readonly contact?: string;
  /** The User-Agent the records were fetched with (`http-header-user-agent`). */
  readonly userAgent?: string;
}

/** The WARC 1.1 `format` and `conformsTo` of every file the archive writes. */
export const WARC_FORMAT = 'WARC File Format 1.1';
const CONFORMS_TO = 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/';

/** The warcinfo fields of `info`, in the order they are written. */
export function warcInfoFields(info: WarcInfo): Record<string, string> {
  const fields: Record<string, string> = { software: info.software, format: WARC_FORMAT, conformsTo: CONFORMS_TO };
  if (info.contact !== undefined) fields.operator = info.contact;
  if (info.userAgent !== undefined) fields['http-header-user-agent'] = info.userAgent;
  return fields;
}

/** One warcinfo record dated `date`, as the gzip member that opens a file. */
export async function warcInfoMember(info: WarcInfo, date: Date): Promise<Buffer> {
  for (const [name, value] of Object.entries(warcInfoFields(info))) {
    // A field value is one line: a line break would start a field the writer never meant.
    if (/[\r\n]/.test(value)) throw new Error(`warcinfo ${name}: a line break in ${JSON.stringify(value)}`);
  }
  const fields = warcInfoFields(info);
  // The block as warcio writes it, one `name: value` line each; hashed here since warcio hashes no warcinfo.
  const block = Object.entries(fields).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const record = WARCRecord.createWARCInfo({
    date: date.toISOString(), warcVersion: WARC_1_1,
    warcHeaders: { 'WARC-Record-ID': `<urn:uuid:${randomUUID()}>`, 'WARC-Block-Digest': warcPayloadDigest(createHash('sha256').update(block).digest('hex')) },
  }, fields);
  return gzipWarcMember(await WARCSerializer.serialize(record, { digest: { algo: 'sha-256', prefix: 'sha256:', base32: true } }));
}
