/** Streams NDJSON lines to a file through a small buffer, so a corpus of any size never sits in memory. */
import { closeSync, openSync, writeSync } from 'node:fs';

const FLUSH_AT = 1 << 20;

/** Appends one JSON object per `\n`-terminated line; call close() once when done. */
export class NdjsonWriter {
  readonly path: string;
  #fd: number;
  #buffer: string[] = [];
  #buffered = 0;
  #lines = 0;
  #bytes = 0;

  constructor(path: string) {
    this.path = path;
    this.#fd = openSync(path, 'wx');
  }

  /** Lines written so far. */
  get lines(): number {
    return this.#lines;
  }

  /** Appends one value as a line. */
  write(value: unknown): void {
    const line = `${JSON.stringify(value)}\n`;
    this.#buffer.push(line);
    this.#buffered += line.length;
    this.#lines += 1;
    if (this.#buffered >= FLUSH_AT) this.#flush();
  }

  /** Flushes and closes the file; returns its size in bytes. */
  close(): number {
    this.#flush();
    closeSync(this.#fd);
    return this.#bytes;
  }

  #flush(): void {
    if (this.#buffer.length === 0) return;
    const chunk = Buffer.from(this.#buffer.join(''), 'utf8');
    let offset = 0;
    while (offset < chunk.length) offset += writeSync(this.#fd, chunk, offset);
    this.#bytes += chunk.length;
    this.#buffer = [];
    this.#buffered = 0;
  }
}
