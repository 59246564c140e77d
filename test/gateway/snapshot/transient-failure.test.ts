import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SnapshotRejectedError } from '../../../gateway/snapshot/open-snapshot.ts';
import { transientCodeOf } from '../../../gateway/snapshot/transient-failure.ts';

const systemError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('transientCodeOf', () => {
  const cases: Array<[string, unknown, string | undefined]> = [
    ['an EMFILE error', systemError('EMFILE', 'EMFILE: too many open files, open \'/x\''), 'EMFILE'],
    ['an ENFILE cause', new Error('wrapped', { cause: systemError('ENFILE', 'file table overflow') }), 'ENFILE'],
    ['a worker that could not start', systemError('ERR_WORKER_INIT_FAILED', 'Worker initialization failure: EMFILE'), 'EMFILE'],
    ['a load refusal quoting EAGAIN', new SnapshotRejectedError('cannot open snapshot /x: EAGAIN: resource temporarily unavailable, open \'/x\''), 'EAGAIN'],
    ['a missing file', systemError('ENOENT', 'ENOENT: no such file or directory'), undefined],
    ['a bad checksum', new SnapshotRejectedError('snapshot /x refused: content: file sha256 ab does not match cd'), undefined],
    ['a word merely containing the code', new Error('XEMFILEX'), undefined],
    ['not an error', 'EMFILE', undefined],
  ];
  for (const [name, error, expected] of cases) {
    it(`${name}: ${expected ?? 'not transient'}`, () => assert.equal(transientCodeOf(error), expected));
  }
});
