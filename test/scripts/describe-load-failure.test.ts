import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeLoadFailure } from '../../scripts/describe-load-failure.ts';

const emfile = Object.assign(new Error('EMFILE: too many open files, open \'/app/x.js\'\n    at open'), { code: 'EMFILE' });
const notFound = Object.assign(new Error('Cannot find package \'/app/node_modules/y/index.js\' imported from /app/z.js'), { code: 'ERR_MODULE_NOT_FOUND' });

describe('describeLoadFailure', () => {
  it('names the open-file limit when descriptors ran out, on one line', () => {
    assert.equal(describeLoadFailure(emfile, 64), 'cannot load hra: EMFILE: too many open files, open \'/app/x.js\': the open-file limit (ulimit -n) is 64, too low to load hra; raise it to 256 or more');
    assert.equal(describeLoadFailure(emfile, undefined), 'cannot load hra: EMFILE: too many open files, open \'/app/x.js\': out of file descriptors; raise the open-file limit (ulimit -n)');
  });

  it('names a low limit behind a package lookup that could not open its file', () => {
    assert.match(describeLoadFailure(notFound, 64), /^cannot load hra: Cannot find package .*: the open-file limit \(ulimit -n\) is 64/);
  });

  it('leaves the limit out when it is not low and not the cause', () => {
    assert.equal(describeLoadFailure(notFound, 20_000), `cannot load hra: ${notFound.message}`);
  });
});
