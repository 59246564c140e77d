import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
