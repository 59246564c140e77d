/**
 * Reads a .warc.gz file with node-warc, the independent reader the archive tests check every written file with
 * (a different project's line-based parser, not warcio that wrote it).
 */
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { createGunzip } from 'node:zlib';

const require = createRequire(import.meta.url);

/** A record as node-warc reads it: its WARC header fields, HTTP head (when any) and content bytes. */
export interface NodeWarcRecord {
  warcHeader: Record<string, string>;
  httpInfo: { statusCode?: string | number; method?: string; headers: Record<string, string> } | null;
  /** node-warc's content: the record's closing CRLF stays on the last line of a payload not ending in CRLF. */
  content: Buffer | null;
}

interface StreamTransform extends NodeJS.ReadWriteStream {
  buffered: Buffer | undefined;
  _consumeChunk(chunk: Buffer, done: () => void, pushLast?: boolean): void;
  _flush(done: () => void): void;
}

/** Every record node-warc reads from a gzip WARC file (its own multi-member gunzip and line parser), in order. */
export async function readWithNodeWarc(file: string): Promise<NodeWarcRecord[]> {
  const WARCStreamTransform = require('node-warc/lib/parsers/warcStreamTransform') as new () => StreamTransform;
  const transform = new WARCStreamTransform();
  // node-warc 3.3.1's _flush calls its callback twice, which Node 20 streams reject; this is its own flush, once.
  transform._flush = function flushOnce(done) {
    this._consumeChunk(this.buffered ?? Buffer.alloc(0), done, true);
  };
  const records: NodeWarcRecord[] = [];
  const stream = createReadStream(file).pipe(createGunzip()).pipe(transform);
  for await (const record of stream as AsyncIterable<NodeWarcRecord>) records.push(record);
  return records;
}

/** The payload node-warc read, without the closing CRLF its line reader leaves on a payload not ending in one. */
export function nodeWarcPayload(record: NodeWarcRecord): Buffer {
  const content = record.content ?? Buffer.alloc(0);
  return content.length >= 2 && content.subarray(-2).toString('latin1') === '\r\n' ? content.subarray(0, -2) : content;
}

/**
 * The records node-warc reads from a file the archive wrote, after the warcinfo record every such file begins
 * with (which fails the read unless it is there, first, naming the software and the format).
 */
export async function readArchivedExchanges(file: string): Promise<NodeWarcRecord[]> {
  const [first, ...rest] = await readWithNodeWarc(file);
  if (first?.warcHeader['WARC-Type'] !== 'warcinfo') throw new Error(`${file}: the first record is ${first ? `a ${first.warcHeader['WARC-Type']} record` : 'missing'}, not a warcinfo`);
  const fields = nodeWarcPayload(first).toString('utf8');
  if (!/^software: home-repair-api\b/m.test(fields) || !/^format: WARC File Format 1\.1\r$/m.test(fields)) throw new Error(`${file}: the warcinfo names no software or format: ${JSON.stringify(fields)}`);
  return rest;
}
