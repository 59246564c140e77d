import * as assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { createTurnBatchedStream, type LineSink } from '../../../gateway/observability/turn-batched-stream.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

function recordingSink() {
  const writes: string[] = [];
  let flushes = 0;
  const sink: LineSink = {
    write: (chunk) => writes.push(chunk),
    flushSync: () => {
      flushes += 1;
    },
  };
  return { sink, writes, flushes: () => flushes };
}

describe('createTurnBatchedStream', () => {
  it('hands one turn\'s lines to the sink in one write, in order, and nothing before the turn ends', async () => {
    const { sink, writes } = recordingSink();
    const stream = createTurnBatchedStream(sink);
    stream.write('a\n');
    stream.write('b\n');
    stream.write('c\n');
    assert.deepEqual(writes, []);
    await turn();
    assert.deepEqual(writes, ['a\nb\nc\n']);
    stream.write('d\n');
    await turn();
    assert.deepEqual(writes, ['a\nb\nc\n', 'd\n']);
    await turn();
    assert.equal(writes.length, 2, 'an idle turn writes nothing');
  });

  it('flushSync pushes the gathered lines through, then flushes the sink synchronously', async () => {
    const { sink, writes, flushes } = recordingSink();
    const stream = createTurnBatchedStream(sink);
    stream.write('x\n');
    stream.write('y\n');
    stream.flushSync();
    assert.deepEqual(writes, ['x\ny\n']);
    assert.equal(flushes(), 1);
    await turn();
    assert.deepEqual(writes, ['x\ny\n'], 'the scheduled drain finds nothing left');
  });
});

describe('createTurnBatchedStream with a hold', () => {
  it('holds lines across turns until the interval ends, then writes them in one write, in order', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const { sink, writes } = recordingSink();
      const stream = createTurnBatchedStream(sink, { ms: 20, maxChars: 1000 });
      stream.write('a\n');
      await turn();
      stream.write('b\n');
      mock.timers.tick(19);
      assert.deepEqual(writes, [], 'nothing before the interval ends');
      mock.timers.tick(1);
      assert.deepEqual(writes, ['a\nb\n']);
      stream.write('c\n');
      mock.timers.tick(20);
      assert.deepEqual(writes, ['a\nb\n', 'c\n'], 'the next line starts a new interval');
      mock.timers.tick(100);
      assert.equal(writes.length, 2, 'an idle interval writes nothing');
    } finally {
      mock.timers.reset();
    }
  });

  it('writes a batch at once when it reaches maxChars, and flushSync writes what is held', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const { sink, writes, flushes } = recordingSink();
      const stream = createTurnBatchedStream(sink, { ms: 20, maxChars: 6 });
      stream.write('aa\n');
      assert.deepEqual(writes, []);
      stream.write('bb\n');
      assert.deepEqual(writes, ['aa\nbb\n'], 'six characters gathered: written without waiting');
      stream.write('cc\n');
      stream.flushSync();
      assert.deepEqual(writes, ['aa\nbb\n', 'cc\n']);
      assert.equal(flushes(), 1);
      mock.timers.tick(20);
      assert.equal(writes.length, 2, 'the cleared timer writes nothing');
    } finally {
      mock.timers.reset();
    }
  });
});
