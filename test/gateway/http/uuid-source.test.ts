import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createUuidSource, randomRequestUuid } from '../../../gateway/http/uuid-source.ts';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createUuidSource', () => {
  it('writes the fill\'s bytes as a version 4 UUID, its version and variant bits set over them', () => {
    const next = createUuidSource((bytes) => bytes.fill(0xff));
    assert.equal(next(), 'ffffffff-ffff-4fff-bfff-ffffffffffff');
    const zeros = createUuidSource((bytes) => bytes.fill(0));
    assert.equal(zeros(), '00000000-0000-4000-8000-000000000000');
  });
  it('takes each id from its own 16 bytes, in order, and fills again once a batch of 128 is used', () => {
    let fills = 0;
    const next = createUuidSource((bytes) => {
      fills++;
      for (let index = 0; index < bytes.length; index++) bytes[index] = (index + fills) & 0xff;
    });
    assert.equal(next(), '01020304-0506-4708-890a-0b0c0d0e0f10');
    assert.equal(next(), '11121314-1516-4718-991a-1b1c1d1e1f20');
    for (let id = 2; id < 128; id++) next();
    assert.equal(fills, 1);
    assert.equal(next(), '02030405-0607-4809-8a0b-0c0d0e0f1011');
    assert.equal(fills, 2);
  });
});

describe('randomRequestUuid', () => {
  it('gives distinct version 4 UUIDs across several batches', () => {
    const ids = Array.from({ length: 1000 }, () => randomRequestUuid());
    for (const id of ids) assert.match(id, V4);
    assert.equal(new Set(ids).size, ids.length);
  });
});
