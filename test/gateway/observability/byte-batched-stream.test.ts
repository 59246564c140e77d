import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, mock } from 'node:test';
import { pino } from 'pino';
import { createByteBatchedStream, takesBytesInPlace, type ByteSink } from '../../../gateway/observability/byte-batched-stream.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

/** A sink that keeps every chunk it is handed as it is, uncopied, as sonic-boom does until its write completes. */
function recordingSink() {
  const chunks: Buffer[] = [];
  let flushes = 0;
  const sink: ByteSink = {
    write: (chunk) => chunks.push(chunk),
    flushSync: () => {
      flushes += 1;
    },
  };
  return { sink, chunks, text: () => chunks.map((chunk) => chunk.toString('utf8')), flushes: () => flushes };
}

/** Writes `line` the way the request line does: in place, through `room` and `commit`. */
function writeInPlace(stream: ReturnType<typeof createByteBatchedStream>, line: string): void {
  const bytes = Buffer.from(line);
  const target = stream.room(bytes.length);
  target.set(bytes, stream.at);
  stream.commit(stream.at + bytes.length);
}

describe('createByteBatchedStream', () => {
  it('holds pino\'s lines and lines written in place until the interval ends, then hands them over in one chunk, in order', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const { sink, text } = recordingSink();
      const stream = createByteBatchedStream(sink, { ms: 20, maxBytes: 1000 });
      stream.write('a\n');
      writeInPlace(stream, 'b\n');
      stream.write('c\n');
      mock.timers.tick(19);
      assert.deepEqual(text(), [], 'nothing before the interval ends');
      mock.timers.tick(1);
      assert.deepEqual(text(), ['a\nb\nc\n']);
      writeInPlace(stream, 'd\n');
      mock.timers.tick(20);
      assert.deepEqual(text(), ['a\nb\nc\n', 'd\n'], 'the next line starts a new interval');
      mock.timers.tick(100);
      assert.equal(text().length, 2, 'an idle interval writes nothing');
    } finally {
      mock.timers.reset();
    }
  });

  it('hands a batch over at once when it reaches maxBytes, and flushSync writes what is held, then flushes the sink', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const { sink, text, flushes } = recordingSink();
      const stream = createByteBatchedStream(sink, { ms: 20, maxBytes: 6 });
      stream.write('aa\n');
      assert.deepEqual(text(), []);
      writeInPlace(stream, 'bb\n');
      assert.deepEqual(text(), ['aa\nbb\n'], 'six bytes gathered: handed over without waiting');
      stream.write('cc\n');
      stream.flushSync();
      assert.deepEqual(text(), ['aa\nbb\n', 'cc\n']);
      assert.equal(flushes(), 1);
      mock.timers.tick(20);
      assert.equal(text().length, 2, 'the cleared timer writes nothing');
    } finally {
      mock.timers.reset();
    }
  });

  it('never writes into a chunk it has handed over: the sink may hold it until its write completes', () => {
    const { sink, chunks } = recordingSink();
    const stream = createByteBatchedStream(sink, { ms: 20, maxBytes: 64 });
    writeInPlace(stream, 'first line\n');
    stream.flushSync();
    const first = chunks[0] as Buffer;
    writeInPlace(stream, 'SECOND LINE\n');
    stream.write('third line\n');
    stream.flushSync();
    assert.equal(first.toString('utf8'), 'first line\n', 'the first chunk still holds its own bytes');
    assert.equal(chunks[1]?.toString('utf8'), 'SECOND LINE\nthird line\n');
    assert.notEqual(first.buffer, chunks[1]?.buffer, 'each batch has a buffer of its own');
  });

  it('never writes into a large batch it has handed over whole, either', () => {
    const { sink, chunks } = recordingSink();
    const stream = createByteBatchedStream(sink, { ms: 20, maxBytes: 64 });
    const first = `${'a'.repeat(39)}\n`;
    writeInPlace(stream, first); // 40 of 64 bytes: more than half a buffer, handed over without a copy
    stream.flushSync();
    writeInPlace(stream, `${'B'.repeat(39)}\n`);
    stream.flushSync();
    assert.equal(chunks[0]?.toString('utf8'), first, 'the first chunk still holds its own bytes');
    assert.notEqual(chunks[0]?.buffer, chunks[1]?.buffer, 'each batch has a buffer of its own');
  });

  it('copies a small batch out at its own size, so a chunk sonic-boom holds under backlog pins no whole buffer', () => {
    const { sink, chunks } = recordingSink();
    const stream = createByteBatchedStream(sink, { ms: 20, maxBytes: 64 * 1024 });
    for (let index = 0; index < 3; index++) {
      writeInPlace(stream, `line ${index}\n`);
      stream.flushSync();
    }
    assert.deepEqual(chunks.map((chunk) => chunk.toString('utf8')), ['line 0\n', 'line 1\n', 'line 2\n']);
    for (const chunk of chunks) assert.equal(chunk.buffer.byteLength, chunk.length, 'the memory a held chunk keeps is what sonic-boom counts');
  });

  it('closes a batch before a line that does not fit, and passes a line longer than a batch whole, in order', () => {
    const { sink, text } = recordingSink();
    const stream = createByteBatchedStream(sink, { ms: 20, maxBytes: 16 });
    stream.write('0123456789\n');
    const long = `${'x'.repeat(40)}\n`;
    stream.write(long);
    writeInPlace(stream, 'tail\n');
    stream.flushSync();
    assert.deepEqual(text(), ['0123456789\n', long, 'tail\n']);
  });

  it('encodes pino\'s lines as UTF-8 exactly as a string write to stderr would, lone surrogates included', () => {
    const { sink, chunks } = recordingSink();
    const stream = createByteBatchedStream(sink, { ms: 20, maxBytes: 1024 });
    const line = 'é ñ 漢字 🚧 \u2028 lone \ud800 and \udfff\n';
    stream.write(line);
    stream.flushSync();
    assert.deepEqual(chunks[0], Buffer.from(line, 'utf8'));
  });

  it('offers its bytes in place, which a string destination does not', () => {
    assert.equal(takesBytesInPlace(createByteBatchedStream(recordingSink().sink, { ms: 20, maxBytes: 64 })), true);
    assert.equal(takesBytesInPlace({ write: () => undefined }), false);
    assert.equal(takesBytesInPlace(undefined), false);
  });
});

describe('createByteBatchedStream into sonic-boom\'s buffer mode', () => {
  it('reaches the file whole, and sonic-boom keeps its backlog bound in bytes: past maxLength a batch is dropped, not queued', async () => {
    const dir = makeTempDir('hra-byte-batch-');
    try {
      const file = join(dir, 'out.log');
      const sink = pino.destination({ dest: file, sync: false, maxLength: 64, contentMode: 'buffer' });
      await new Promise((resolve) => sink.once('ready', resolve));
      const dropped: Buffer[] = [];
      sink.on('drop', (chunk: Buffer) => dropped.push(chunk));
      const written = once(sink, 'write');
      const stream = createByteBatchedStream(sink as unknown as ByteSink, { ms: 20, maxBytes: 40 });
      const line = `${'y'.repeat(39)}\n`;
      stream.write(line); // 40 bytes: handed over at once, and sonic-boom starts writing it
      stream.write(line); // 80 bytes pending: past maxLength, dropped whole
      assert.equal(dropped.length, 1);
      assert.deepEqual(dropped[0], Buffer.from(line));
      stream.flushSync();
      // The first chunk may still be on its way (a write in flight is left to finish, as at exit).
      await written;
      assert.equal(readFileSync(file, 'utf8'), line);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes every held line at exit, through the gateway logger\'s own stderr destination', () => {
    // A process that logs and exits at once, with lines still held: nothing may be lost.
    const script = `
      import { createGatewayLogger } from './gateway/observability/gateway-logger.ts';
      const log = createGatewayLogger({ level: 'info' });
      for (let i = 0; i < 500; i++) log.info({ i }, 'line ' + i + ' é');
      process.exit(0);
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    const lines = child.stderr.trim().split('\n').map((line) => JSON.parse(line) as { i: number; msg: string });
    assert.equal(lines.length, 500);
    assert.deepEqual(lines.map((line) => line.i), Array.from({ length: 500 }, (_, i) => i));
    assert.equal(lines[499]?.msg, 'line 499 é');
  });
});
